/** Where each kind of file lives in a schema folder (see docs/schema.md). */

export type SchemaFileKind = "protocol" | "meta" | "errors" | "capabilities" | "type" | "notification" | "method";

const fixedFiles: Readonly<Record<string, SchemaFileKind>> = {
  "protocol.json": "protocol",
  "meta.json": "meta",
  "errors.json": "errors",
  "capabilities.json": "capabilities",
};

const folders: Readonly<Record<string, SchemaFileKind>> = {
  types: "type",
  notifications: "notification",
  methods: "method",
};

export const requiredFiles: readonly string[] = Object.keys(fixedFiles);

export const layoutDescription =
  "expected protocol.json, meta.json, errors.json, capabilities.json, types/*.json, notifications/*.json or methods/*.json";

/** The kind of file at `path`, or undefined when the folder has no place for it. */
export function kindOfPath(path: string): SchemaFileKind | undefined {
  const fixed = fixedFiles[path];
  if (fixed) return fixed;
  const parts = path.split("/");
  return parts.length === 2 && parts[0] !== undefined ? folders[parts[0]] : undefined;
}
