/**
 * The project's documentation as the docs tests read it: every Markdown page a user or a
 * contributor meets (README, the guides and references of docs/, the contributor pages and the
 * packages' own READMEs), found by walking docs/ so a page added there is checked with the rest.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "../generator/run-cli.js";

const fixedDocuments = [
  "README.md",
  "SECURITY.md",
  "ARCHITECTURE.md",
  "CONTRIBUTING.md",
  "runtime/README.md",
  "generator/README.md",
];

/** Paths relative to the repository root, `docs/**\/*.md` included. */
export function documentPaths(): string[] {
  const docs = existsSync(join(repoRoot, "docs"))
    ? readdirSync(join(repoRoot, "docs"), { recursive: true, encoding: "utf8" })
        .filter((name) => name.endsWith(".md"))
        .map((name) => `docs/${name.replaceAll("\\", "/")}`)
        .sort()
    : [];
  return [...fixedDocuments, ...docs];
}

export const readDocument = (path: string): string => readFileSync(join(repoRoot, path), "utf8");

/** The body of every ```ts block. */
export const typescriptBlocks = (markdown: string): string[] =>
  [...markdown.matchAll(/^```ts\n([\s\S]*?)^```/gm)].map((match) => match[1]!);

/** The text outside fenced code blocks, where headings and links live. */
export const prose = (markdown: string): string => markdown.replace(/^```[^\n]*\n[\s\S]*?^```/gm, "");

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export const slugOf = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");

/** The anchors a page's headings make, a repeated one numbered as GitHub numbers it. */
export function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, heading] of prose(markdown).matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = slugOf(heading!);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}
