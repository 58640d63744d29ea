/**
 * The TypeScript examples of every documentation page (README.md, docs/**, SECURITY.md, the
 * contributor pages and the package READMEs) against the generated code they describe: each
 * block is type-checked with the project's strict settings, so an example that drifts from the
 * API fails here instead of in a user's editor.
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { scratchFolder, typecheck } from "../generator/typecheck.js";
import { documentPaths, readDocument, typescriptBlocks } from "./documents.js";

const examples = Object.fromEntries(documentPaths().map((path) => [path, typescriptBlocks(readDocument(path))]));
const scratch = scratchFolder("readme-");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

it("has TypeScript examples for the server, the client and every server option", () => {
  expect(examples["README.md"]!.some((code) => code.includes("createServer("))).toBe(true);
  expect(examples["README.md"]!.some((code) => code.includes("connectStdio("))).toBe(true);
  expect(examples["docs/server.md"]!.some((code) => code.includes("ctx.meta"))).toBe(true);
  expect(examples["docs/client.md"]!.some((code) => code.includes("meta: {"))).toBe(true);
  expect(examples["SECURITY.md"]!.some((code) => code.includes("diagnostics:"))).toBe(true);
  expect(Object.values(examples).flat().length).toBeGreaterThan(20);
});

it("every TypeScript example in the documentation type-checks against generated/", () => {
  for (const [document, blocks] of Object.entries(examples))
    blocks.forEach((code, index) => {
      // The examples import `./generated/...` as a user at the repository root would.
      const located = code.replaceAll('from "./generated/', 'from "../../generated/');
      writeFileSync(
        join(scratch, `${document.replaceAll("/", "-").replace(".md", "")}-${index}.ts`),
        `${located}\nexport {};\n`,
      );
    });
  const result = typecheck(scratch);
  expect(result.output).toBe("");
  expect(result.status).toBe(0);
});
