/**
 * Every relative link of the documentation reaches a file that exists, and every anchor a
 * heading of its page (GitHub's slugs), so moving or renaming a section breaks the suite
 * rather than a reader's click. Links to other sites are left to the reader's browser.
 */
import { existsSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { expect, it } from "vitest";
import { repoRoot } from "../generator/run-cli.js";
import { anchorsOf, documentPaths, prose, readDocument, slugOf } from "./documents.js";

/** `[text](target)` outside code, with inline code spans blanked so their brackets are not links. */
const linksOf = (markdown: string): string[] =>
  [
    ...prose(markdown)
      .replace(/`[^`\n]*`/g, "code")
      .matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g),
  ].map((match) => match[1]!);

it("finds every page, and links in them", () => {
  const paths = documentPaths();
  expect(paths).toEqual(
    expect.arrayContaining(["README.md", "docs/server.md", "runtime/README.md", "CONTRIBUTING.md"]),
  );
  expect(paths.flatMap((path) => linksOf(readDocument(path))).length).toBeGreaterThan(50);
});

it("slugs headings as GitHub does", () => {
  expect(slugOf("In one command: `rcp-gen init`")).toBe("in-one-command-rcp-gen-init");
  expect(slugOf("Request metadata: `ctx.meta`")).toBe("request-metadata-ctxmeta");
  expect([...anchorsOf("# A\n\n```sh\n# not a heading\n```\n## A\n")]).toEqual(["a", "a-1"]);
});

it("every relative link and anchor resolves", () => {
  const broken = documentPaths().flatMap((path) =>
    linksOf(readDocument(path))
      .filter((target) => !/^[a-z][a-z+.-]*:/i.test(target))
      .flatMap((target) => {
        const [file, anchor] = target.split("#") as [string, string | undefined];
        const resolved = file === "" ? path : normalize(join(dirname(path), decodeURI(file)));
        if (!existsSync(join(repoRoot, resolved))) return [`${path}: ${target} (no file ${resolved})`];
        if (anchor === undefined || !resolved.endsWith(".md")) return [];
        return anchorsOf(readDocument(resolved)).has(anchor)
          ? []
          : [`${path}: ${target} (no heading #${anchor} in ${resolved})`];
      }),
  );
  expect(broken).toEqual([]);
});
