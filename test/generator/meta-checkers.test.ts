/**
 * The loader checks each schema file with validators compiled ahead of time
 * (generator/src/load/meta-schema/checkers.ts, printed by generator/scripts/meta-checkers.ts).
 * A meta-schema edited without `npm run checkers -w rcp-gen` would leave the loader checking the
 * old rules: this fails until the file is rewritten. What the checkers refuse, and how they word
 * it, is tested through the CLI in cli.test.ts and loader.test.ts.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { metaCheckersCode } from "../../generator/scripts/meta-checkers.js";
import { repoRoot } from "./run-cli.js";

it("the committed meta-schema checkers are what the meta-schemas compile to", () => {
  const committed = readFileSync(join(repoRoot, "generator/src/load/meta-schema/checkers.ts"), "utf8");
  expect(committed === metaCheckersCode(), "run `npm run checkers -w rcp-gen` after editing a meta-schema").toBe(true);
});
