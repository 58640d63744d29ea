/**
 * types.ts: one declaration per shape from json-schema-to-typescript, closed object types (a
 * typo in user code fails to compile; validators stay open), descriptions as doc comments.
 * json-schema-to-typescript leaves the layout to the run's prettier pass (`format: false`).
 */
import { SchemaFolderError } from "../load/schema-folder-error.js";
import { targetCode } from "./builtin.js";
import { buildTypeSchema, vendorMarker } from "./shared/type-schema.js";

const rootName = "RcpTypes";

export const typesTarget = targetCode({
  async generate({ model, newFile }) {
    const { compile } = await import("json-schema-to-typescript");
    const declarations = await compile(buildTypeSchema(model), rootName, {
      bannerComment: "",
      additionalProperties: false,
      unreachableDefinitions: true,
      declareExternallyReferenced: true,
      ignoreMinAndMaxItems: true,
      format: false,
      strictIndexSignatures: false,
    });
    const text = narrowVendorIndexSignatures(withoutRoot(withoutDefinitionNotes(declarations)));
    const declared = new Set([...text.matchAll(/^export (?:interface|type) (\w+)/gm)].map((match) => match[1]));
    for (const shape of model.shapes)
      if (!declared.has(shape.typeName))
        throw new SchemaFolderError(
          shape.file,
          shape.pointer,
          `the type name ${shape.typeName} is used by another schema too`,
        );
    const file = newFile("types.ts");
    file.print(text);
    return [file];
  },
});

/** The root interface json-schema-to-typescript declares for the input: nothing refers to it. */
function withoutRoot(declarations: string): string {
  const root = new RegExp(`^export interface ${rootName} \\{\\s*\\}\\n`, "m");
  if (!root.test(declarations)) throw new Error(`json-schema-to-typescript declared no empty ${rootName}`);
  return declarations.replace(root, "");
}

/**
 * `[k: string]: A | B | Marker<T>` from a `^x-` pattern becomes `[k: \`x-${string}\`]: T` (§6.2).
 * A signature ends at the first line break outside brackets: a named vendor member's object
 * type spans several lines of json-schema-to-typescript's unformatted output.
 */
function narrowVendorIndexSignatures(declarations: string): string {
  const marker = new RegExp(`${vendorMarker}<([^<>]*)>`);
  let narrowed = "";
  let from = 0;
  for (const start of [...declarations.matchAll(/^\[k: string\]: /gm)].map((match) => match.index)) {
    if (start < from) continue;
    const end = signatureEnd(declarations, start);
    const valueType = marker.exec(declarations.slice(start, end))?.[1];
    if (valueType === undefined) continue;
    narrowed += `${declarations.slice(from, start)}[k: \`x-\${string}\`]: ${valueType}`;
    from = end;
  }
  narrowed += declarations.slice(from);
  if (narrowed.includes(vendorMarker)) throw new Error(`a ${vendorMarker} marker is left outside an index signature`);
  return narrowed;
}

function signatureEnd(text: string, start: number): number {
  let depth = 0;
  for (let index = start; index < text.length; index += 1) {
    const char = text[index];
    if (char === "{" || char === "(" || char === "[" || char === "<") depth += 1;
    else if (char === "}" || char === ")" || char === "]" || (char === ">" && text[index - 1] !== "=")) depth -= 1;
    else if (char === "\n" && depth === 0) return index;
  }
  return text.length;
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
