/**
 * The README's TypeScript examples against the generated code they describe: each block is
 * type-checked with the project's strict settings, so an example that drifts from the API
 * fails here instead of in a user's editor.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { repoRoot } from "../generator/run-cli.js";
import { scratchFolder, typecheck } from "../generator/typecheck.js";

const readme = readFileSync(join(repoRoot, "README.md"), "utf8");
const examples = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!);
const scratch = scratchFolder("readme-");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

it("has TypeScript examples for the server and the client", () => {
  expect(examples.length).toBeGreaterThanOrEqual(2);
  expect(examples.some((code) => code.includes("createServer("))).toBe(true);
  expect(examples.some((code) => code.includes("connectStdio("))).toBe(true);
});

it("every TypeScript example in README.md type-checks against generated/", () => {
  examples.forEach((code, index) => {
    // The examples import `./generated/...` as a user at the repository root would.
    const located = code.replaceAll('from "./generated/', 'from "../../generated/');
    writeFileSync(join(scratch, `example-${index}.ts`), `${located}\nexport {};\n`);
  });
  const result = typecheck(scratch);
  expect(result.output).toBe("");
  expect(result.status).toBe(0);
});
