/** The repository's schema folder, loaded once per test file through the generator's loader. */
import { fileURLToPath } from "node:url";
import { loadSchemaFolder, type LoadedSchemaFolder } from "../../generator/src/load/loader.js";

export const schemaDir = fileURLToPath(new URL("../../schema/", import.meta.url));

export function loadRepoSchema(): LoadedSchemaFolder {
  return loadSchemaFolder(schemaDir);
}
