/**
 * types.ts: one declaration per shape from json-schema-to-typescript, closed object types
 * (a typo in user code fails to compile; validators stay open), descriptions as doc comments.
 */
import { compile } from "json-schema-to-typescript";
import type { Project } from "ts-morph";
import { GeneratedFile, type EmitSettings } from "./emit-file.js";
import type { LoadedSchemaFolder } from "./loader.js";
import { SchemaFolderError } from "./schema-folder-error.js";
import type { Shape } from "./shapes.js";
import { buildTypeSchema } from "./type-schema.js";

const rootName = "RcpTypes";

export async function emitTypes(
  project: Project,
  settings: EmitSettings,
  folder: LoadedSchemaFolder,
  shapes: readonly Shape[],
): Promise<string> {
  const declarations = await compile(buildTypeSchema(folder, shapes) as never, rootName, {
    bannerComment: "",
    additionalProperties: false,
    unreachableDefinitions: true,
    declareExternallyReferenced: true,
    ignoreMinAndMaxItems: true,
    format: false,
    strictIndexSignatures: false,
  });
  const file = new GeneratedFile(project, "types.ts", settings);
  file.source.addStatements(withoutDefinitionNotes(declarations));
  file.source.getInterfaceOrThrow(rootName).remove();
  for (const shape of shapes)
    if (!file.source.getInterface(shape.typeName) && !file.source.getTypeAlias(shape.typeName))
      throw new SchemaFolderError(
        shape.file,
        shape.pointer,
        `the type name ${shape.typeName} is used by another schema too`,
      );
  return file.render();
}

/** Drops json-schema-to-typescript's "referenced by `RcpTypes`" notes, which name a root no one sees. */
function withoutDefinitionNotes(declarations: string): string {
  return declarations
    .replace(
      /(\n\s*\*[ \t]*)?\n\s*\* This (interface|type) was referenced by `[^`]*`'s JSON-Schema( definition)?\n\s*\* via the `\w+` "[^"]*"\./g,
      "",
    )
    .replace(/\/\*\*\n\s*\*\/\n/g, "");
}
