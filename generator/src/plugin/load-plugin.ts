/** A user's plugin module (`--plugin ./my-plugin.js`): an ESM module whose default export is an rcp-gen plugin. */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { PluginError } from "./run-plugins.js";
import type { RcpGenPlugin } from "./plugin.js";

export async function loadPlugin(path: string): Promise<RcpGenPlugin> {
  let module: { default?: unknown };
  try {
    module = (await import(pathToFileURL(resolve(path)).href)) as { default?: unknown };
  } catch (error) {
    throw new PluginError(`cannot load the plugin ${path}: ${(error as Error).message}`);
  }
  const plugin = module.default;
  if (!isPlugin(plugin))
    throw new PluginError(
      `${path} is not an rcp-gen plugin: its default export must be definePlugin({ name, generate(context) { ... } }) (from "rcp-gen")`,
    );
  return plugin;
}

function isPlugin(value: unknown): value is RcpGenPlugin {
  if (typeof value !== "object" || value === null) return false;
  const { name, generate, requires } = value as Partial<Record<keyof RcpGenPlugin, unknown>>;
  return (
    typeof name === "string" &&
    name !== "" &&
    typeof generate === "function" &&
    (requires === undefined || (Array.isArray(requires) && requires.every((item) => typeof item === "string")))
  );
}
