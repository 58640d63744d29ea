/**
 * types.ts: one declaration per shape from json-schema-to-typescript, closed object types
 * (a typo in user code fails to compile; validators stay open), descriptions as doc comments.
 */
import { compile } from "json-schema-to-typescript";
import { SyntaxKind, type Project, type SourceFile } from "ts-morph";
import { GeneratedFile, type EmitSettings } from "./emit-file.js";
import type { LoadedSchemaFolder } from "../load/loader.js";
import { SchemaFolderError } from "../load/schema-folder-error.js";
import type { Shape } from "../model/shapes.js";
import { buildTypeSchema, vendorMarker } from "./type-schema.js";

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
  narrowVendorIndexSignatures(file.source);
  // One pass over the declarations: a lookup per shape would scan them all each time.
  const declared = new Set([...file.source.getInterfaces(), ...file.source.getTypeAliases()].map((d) => d.getName()));
  for (const shape of shapes)
    if (!declared.has(shape.typeName))
      throw new SchemaFolderError(
        shape.file,
        shape.pointer,
        `the type name ${shape.typeName} is used by another schema too`,
      );
  return file.render();
}

/** `[k: string]: A | B | Marker<T>` from a `^x-` pattern becomes `[k: \`x-${string}\`]: T` (§6.2). */
function narrowVendorIndexSignatures(source: SourceFile): void {
  const marked = new RegExp(`${vendorMarker}<(.*)>`, "s");
  for (const signature of source.getDescendantsOfKind(SyntaxKind.IndexSignature)) {
    // A value type like `{ [key: string]: unknown }` holds a signature that setReturnType replaces.
    if (signature.wasForgotten()) continue;
    const valueType = marked.exec(signature.getReturnTypeNodeOrThrow().getText())?.[1];
    if (valueType === undefined) continue;
    signature.setKeyType("`x-${string}`");
    signature.setReturnType(valueType);
  }
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
