/**
 * The schema folder a command reads when no --schema is given, the same for every command: the
 * project's settings (config.ts: rcp-gen.config.json, else package.json's "rcp-gen" key), else a
 * `schema/` folder here holding protocol.json (a project that generated with `--schema schema`
 * and keeps no settings), else the RCP/1 schema rcp-gen ships.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { rcpSchemaDir } from "../shipped.js";
import { ConfigError, findConfig } from "./config.js";
import { valueOption } from "./options.js";
import { UsageError } from "./usage-mistakes.js";

/** The order, in one sentence, for each command's --schema help and docs/cli.md. */
export const schemaDefault =
  'default: the "schema" of rcp-gen.config.json, else of package.json\'s "rcp-gen" key (the first found from here up), else ./schema if it holds protocol.json, else the RCP/1 schema rcp-gen ships';

/** Every command's --schema. */
export const schemaOption = valueOption(`The schema folder (${schemaDefault})`);

export function schemaFolderSetting(cwd: string): string {
  let settings;
  try {
    settings = findConfig(cwd)?.config;
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
  return settings?.schema ?? schemaFolderWithoutSettings(cwd);
}

/** The schema folder when the settings name none: ./schema holding protocol.json, else the shipped RCP/1 schema. */
export function schemaFolderWithoutSettings(cwd: string): string {
  const conventional = resolve(cwd, "schema");
  return existsSync(join(conventional, "protocol.json")) ? conventional : rcpSchemaDir();
}
