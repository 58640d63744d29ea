/** The RCP/1 schema folder rcp-gen conform checks against unless given --schema. */
import { fileURLToPath } from "node:url";

/** The repository's schema/, beside this package (src/conform and dist/conform sit at the same depth). */
export function defaultSchemaDir(): string {
  return fileURLToPath(new URL("../../../schema", import.meta.url));
}
