/**
 * `rcp-gen breaking`'s rules, one case each (cases.ts): a copy of this repository's schema/
 * with one small edit, compared with schema/ as it is, and exactly the findings expected.
 */
import { afterAll, describe, expect, it } from "vitest";
import { compareFolders } from "../../generator/src/evolve/compare-folders.js";
import { loadSchemaFolder } from "../../generator/src/load/loader.js";
import { cases } from "./cases.js";
import { removeSchemaCopies, repoSchemaDir, schemaCopy } from "./schema-copy.js";

const repoFolder = loadSchemaFolder(repoSchemaDir);
afterAll(removeSchemaCopies);

describe("rcp-gen breaking: one case per rule", () => {
  for (const { name, old, change, expected } of cases)
    it(name, () => {
      const oldFolder = old ? loadSchemaFolder(schemaCopy(old)) : repoFolder;
      const newFolder = change ? loadSchemaFolder(schemaCopy(change)) : repoFolder;
      const found = compareFolders(oldFolder, newFolder).map(
        (finding) => `${finding.severity} ${finding.rule} ${finding.file}#${finding.pointer}`,
      );
      expect(found.sort(), JSON.stringify(compareFolders(oldFolder, newFolder), null, 1)).toEqual([...expected].sort());
    });
});
