/**
 * The maps of the repository stay true: every path and every code symbol that ARCHITECTURE.md
 * and CONTRIBUTING.md name in backticks exists, and no file cites a document that is not in the
 * repository. A rename or a deletion that forgets the maps fails here.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../generator/run-cli.js";

const MAPS = ["ARCHITECTURE.md", "CONTRIBUTING.md"];
/** Where a path a map names may be relative to: the repository, or a package's sources. */
const PATH_BASES = ["", "runtime/src", "generator/src", "generator", "runtime", "test"];
/** Where a symbol a map names must be declared or used. */
const SOURCE_FOLDERS = ["runtime/src", "generator/src", "generator/scripts", "test", "docs/examples", "generated"];
/** Globals of JavaScript and Node that a map may name as the first part of a dotted name. */
const PLATFORM = new Set(["JSON", "process", "Object", "Promise", "Array", "Symbol", "Math", "Number", "console"]);

const tracked = execFileSync("git", ["ls-files"], { cwd: repoRoot, encoding: "utf8" }).split("\n").filter(Boolean);
const trackedFolders = new Set(
  tracked.flatMap((file) => file.split("/").map((_, i, parts) => parts.slice(0, i).join("/"))),
);
/** RCP method names (`notifications/progress`) look like paths and are not. */
const methodNames = new Set(
  tracked
    .filter((file) => /^schema\/(methods|notifications)\/.+\.json$/.test(file))
    .map((file) =>
      file
        .replace(/^schema\/methods\//, "")
        .replace(/^schema\//, "")
        .replace(/\.json$/, ""),
    ),
);

function codeSpans(file: string): string[] {
  const text = readFileSync(join(repoRoot, file), "utf8").replace(/```[\s\S]*?```/g, "");
  return [...new Set([...text.matchAll(/`([^`\n]+)`/g)].map((match) => match[1]!.trim()))];
}

/** A path, not a package (`@rcp-gen/runtime`), an entry (`/codegen`) or an extension (`.d.ts`). */
const isPath = (span: string) =>
  /^\w[\w.*-]*(\/[\w.*-]*)+$/.test(span) || /^\w[\w.-]*\.(ts|js|json|md|css|cjs|mjs|py|cfg)$/.test(span);

function pathExists(span: string): boolean {
  if (methodNames.has(span)) return true;
  // A glob names its folder: test/fuzz/*.test.ts needs test/fuzz.
  const path = span.includes("*") ? span.slice(0, span.indexOf("*")).replace(/\/$/, "") : span.replace(/\/$/, "");
  if (PATH_BASES.some((base) => existsSync(join(repoRoot, base, path)))) return true;
  // A bare file or folder name: somewhere in the sources.
  return (
    tracked.some((file) => file.endsWith(`/${path}`)) || [...trackedFolders].some((dir) => dir.endsWith(`/${path}`))
  );
}

/** `ServerCore.handleText(text, inbound)`, `#pending`, `loadSchemaFolder(dir)`: camelCase or PascalCase names. */
function symbolNames(span: string): string[] | undefined {
  const match = /^(#?[A-Za-z_$][\w$]*(?:\.#?[A-Za-z_$][\w$]*)*)(\(.*\))?$/.exec(span);
  if (!match) return undefined;
  const parts = match[1]!.split(".");
  if (PLATFORM.has(parts[0]!)) return undefined;
  const named = parts.map((part) => part.replace(/^#/, ""));
  // A plain lower-case word (`out`, `ping`, `signal`) may be prose or a key: only names with a
  // capital inside, a private `#`, a call or a member are taken for symbols.
  const symbolLike = /[a-z][A-Z]|^[A-Z][a-z]+[A-Z]/.test(match[1]!) || span.includes("#") || match[2] !== undefined;
  return symbolLike ? named : undefined;
}

const sources = SOURCE_FOLDERS.flatMap((folder) =>
  tracked.filter((file) => file.startsWith(`${folder}/`) && /\.(ts|js|mjs)$/.test(file)),
).map((file) => readFileSync(join(repoRoot, file), "utf8"));
const knownNames = new Set(sources.flatMap((text) => text.match(/[A-Za-z_$][\w$]*/g) ?? []));

describe.each(MAPS)("%s names only what exists", (map) => {
  const spans = codeSpans(map);

  it("every path it names is in the repository", () => {
    expect(spans.filter(isPath).filter((span) => !pathExists(span))).toEqual([]);
  });

  it("every symbol it names is in the code", () => {
    const missing = spans
      .filter((span) => !isPath(span))
      .flatMap((span) =>
        (symbolNames(span) ?? []).filter((name) => !knownNames.has(name)).map((name) => `${span}: ${name}`),
      );
    expect(missing).toEqual([]);
  });
});

describe("citations", () => {
  it("no tracked file cites design notes that are not in the repository", () => {
    const citing = tracked.filter(
      (file) =>
        !file.endsWith("package-lock.json") &&
        !file.startsWith("test/docs/maps.test.ts") &&
        /\bdesign\.md\b/.test(readFileSync(join(repoRoot, file), "utf8")),
    );
    expect(citing).toEqual([]);
  });
});
