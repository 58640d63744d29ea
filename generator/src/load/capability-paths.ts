/**
 * Every capability path a method annotation names (capability, requires, gates, clamps,
 * rules) must start with a capability key that capabilities.json declares, by name or by
 * one of its patternProperties (the open `x-<vendor>` space, §6.2): a misspelt key would
 * otherwise silently never gate anything.
 */
import { appendPointer } from "./json-pointer.js";
import type { LoadedMethod } from "./loader.js";
import type { SchemaProblems } from "./schema-folder-error.js";

interface ObjectSchema {
  properties?: Record<string, unknown>;
  patternProperties?: Record<string, unknown>;
}

export function checkCapabilityPaths(
  methods: readonly LoadedMethod[],
  capabilitiesFile: object,
  problems: SchemaProblems,
): void {
  const server = (capabilitiesFile as { $defs: { serverCapabilities: ObjectSchema } }).$defs.serverCapabilities;
  const names = new Set(Object.keys(server.properties ?? {}));
  const patterns = Object.keys(server.patternProperties ?? {}).map((pattern) => new RegExp(pattern, "u"));
  const declared = (key: string) => names.has(key) || patterns.some((pattern) => pattern.test(key));
  for (const method of methods)
    for (const { pointer, path } of capabilityPaths(method.annotation)) {
      const key = path.split(".")[0] ?? "";
      if (!declared(key))
        problems.add(
          method.file,
          pointer,
          `"${path}" starts with "${key}", which capabilities.json does not declare in $defs.serverCapabilities`,
        );
    }
}

function capabilityPaths(annotation: Record<string, unknown>): { pointer: string; path: string }[] {
  const found: { pointer: string; path: string }[] = [];
  const add = (pointer: string, value: unknown) => {
    if (typeof value === "string") found.push({ pointer, path: value });
  };
  add("/x-rcp/capability", annotation["capability"]);
  add("/x-rcp/requires", annotation["requires"]);
  const listed: [string, readonly string[]][] = [
    ["gates", ["in", "requires"]],
    ["clamps", ["max"]],
    ["rules", ["fields", "operators"]],
  ];
  for (const [list, keys] of listed)
    ((annotation[list] ?? []) as Record<string, unknown>[]).forEach((entry, index) => {
      for (const key of keys) add(appendPointer(`/x-rcp/${list}/${index}`, key), entry[key]);
    });
  return found;
}
