/**
 * Every capability path a method annotation names (capability, requires, gates, clamps,
 * rules) must start with a capability key that capabilities.json declares, by name or by
 * one of its patternProperties (the open `x-<vendor>` space, §6.2): a misspelt key would
 * otherwise silently never gate anything.
 */
import type { LoadedMethod } from "./loaded-folder.js";
import type { CapabilitiesFile, MethodAnnotation } from "./meta-schema/schema-files.js";
import type { SchemaProblems } from "./schema-folder-error.js";

export function checkCapabilityPaths(
  methods: readonly LoadedMethod[],
  capabilitiesFile: CapabilitiesFile,
  problems: SchemaProblems,
): void {
  const server = capabilitiesFile.$defs.serverCapabilities;
  const names = new Set(keysOf(server["properties"]));
  const patterns = keysOf(server["patternProperties"]).map((pattern) => new RegExp(pattern, "u"));
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

/** The member names of a JSON object (a schema's `properties`), none for anything else. */
function keysOf(value: unknown): string[] {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? Object.keys(value) : [];
}

/** Every capability path an annotation names, with its pointer in the method file. */
export function capabilityPaths(annotation: MethodAnnotation): { pointer: string; path: string }[] {
  const found: { pointer: string; path: string }[] = [];
  const add = (pointer: string, value: string | null | undefined) => {
    if (typeof value === "string") found.push({ pointer, path: value });
  };
  add("/x-rcp/capability", annotation.capability);
  add("/x-rcp/requires", annotation.requires);
  annotation.gates?.forEach((gate, index) => {
    add(`/x-rcp/gates/${index}/in`, gate.in);
    add(`/x-rcp/gates/${index}/requires`, gate.requires);
  });
  annotation.clamps?.forEach((clamp, index) => add(`/x-rcp/clamps/${index}/max`, clamp.max));
  annotation.rules?.forEach((rule, index) => {
    if (rule.rule !== "filter") return;
    add(`/x-rcp/rules/${index}/fields`, rule.fields);
    add(`/x-rcp/rules/${index}/operators`, rule.operators);
  });
  return found;
}
