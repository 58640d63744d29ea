/** The schema folder a command reads when no --schema is given: the settings' (config.ts), else `schema`. */
import { findConfig } from "./config.js";

export function schemaFolderSetting(cwd: string): string {
  return findConfig(cwd)?.config.schema ?? "schema";
}
