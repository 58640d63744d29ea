/** docs/schema-evolution.md documents every rule of `rcp-gen breaking` and `rcp-gen lint`, and no rule that does not exist. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { lintRuleIds } from "../../generator/src/evolve/lint-rules.js";
import { folderRules, schemaRules } from "../../generator/src/evolve/rules.js";
import { repoRoot } from "./schema-copy.js";

const page = readFileSync(join(repoRoot, "docs/schema-evolution.md"), "utf8");
/** The rule ids of the page's tables: the first cell of each row, in backticks. */
const documented = [...page.matchAll(/^\| `([a-z][a-z-]*)` \|/gm)].map((match) => match[1]);

it("documents each rule once, and only rules that exist", () => {
  const rules = [...Object.keys(schemaRules), ...Object.keys(folderRules), ...lintRuleIds];
  expect([...documented].sort()).toEqual([...rules].sort());
});

it("shows the one-line CI step", () => {
  expect(page).toContain("npx rcp-gen breaking --against origin/main\n");
});
