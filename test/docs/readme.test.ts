/**
 * The TypeScript examples of README.md and SECURITY.md against the generated code they
 * describe: each block is type-checked with the project's strict settings, so an example
 * that drifts from the API fails here instead of in a user's editor.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { repoRoot } from "../generator/run-cli.js";
import { scratchFolder, typecheck } from "../generator/typecheck.js";

const blocksOf = (document: string) =>
  [...readFileSync(join(repoRoot, document), "utf8").matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!);
const examples = { "README.md": blocksOf("README.md"), "SECURITY.md": blocksOf("SECURITY.md") };
const scratch = scratchFolder("readme-");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

it("has TypeScript examples for the server, the client and every server option", () => {
  expect(examples["README.md"].length).toBeGreaterThanOrEqual(2);
  expect(examples["README.md"].some((code) => code.includes("createServer("))).toBe(true);
  expect(examples["README.md"].some((code) => code.includes("connectStdio("))).toBe(true);
  expect(examples["SECURITY.md"].some((code) => code.includes("diagnostics:"))).toBe(true);
});

it("every TypeScript example in README.md and SECURITY.md type-checks against generated/", () => {
  for (const [document, blocks] of Object.entries(examples))
    blocks.forEach((code, index) => {
      // The examples import `./generated/...` as a user at the repository root would.
      const located = code.replaceAll('from "./generated/', 'from "../../generated/');
      writeFileSync(join(scratch, `${document.replace(".md", "")}-${index}.ts`), `${located}\nexport {};\n`);
    });
  const result = typecheck(scratch);
  expect(result.output).toBe("");
  expect(result.status).toBe(0);
});
