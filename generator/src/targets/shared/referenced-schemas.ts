/** Schemas converted for a document that holds them all: OpenRPC's components, a bundle's `$defs`. */
import { isJsonObject } from "../../load/json-pointer.js";
import { subschemaKeywords } from "../../load/schema-walk.js";
import type { RcpModel, Shape } from "../../model/model.js";
import { resolveRef, SchemaNames, type Location } from "./schema-names.js";

/** Keywords that belong to the schema file, not to the schema a reader uses. */
const droppedKeywords = new Set(["$schema", "$id", "$defs", "definitions", "x-rcp"]);
/** Keywords beside a `$ref` that a draft-07 reader may ignore without losing a constraint. */
const annotationKeywords = new Set(["description", "title", "$comment", "examples", "default", "deprecated"]);

/**
 * The schemas one document refers to: each location, once, under its name (types.ts's where it
 * has one), converted: every `$ref` rewritten to `<prefix><Name>` (`#/components/schemas/` in
 * OpenRPC, `#/$defs/` in a bundled JSON Schema), file-only keywords dropped, and a `$ref` beside
 * constraints wrapped in `allOf`, as draft-07 readers ignore what sits beside a `$ref`.
 */
export class ReferencedSchemas {
  readonly #names: SchemaNames;
  readonly #schemas = new Map<string, unknown>();

  constructor(
    private readonly model: RcpModel,
    private readonly prefix: string,
  ) {
    this.#names = new SchemaNames(model);
  }

  refTo(shape: Shape | Location): { $ref: string } {
    const at = { file: shape.file, pointer: shape.pointer };
    const name = this.#names.nameOf(at);
    if (!this.#schemas.has(name)) {
      this.#schemas.set(name, undefined);
      this.#schemas.set(name, this.convert(at.file, this.model.schemaAt(at.file, at.pointer)));
    }
    return { $ref: `${this.prefix}${name}` };
  }

  /** A copy of `schema` (written in `file`) with `$ref`s to components and file-only keywords dropped. */
  convert(file: string, schema: unknown): unknown {
    if (!isJsonObject(schema)) return schema;
    const copy: Record<string, unknown> = {};
    for (const [keyword, value] of Object.entries(schema)) {
      if (droppedKeywords.has(keyword) || keyword === "$ref") continue;
      const shape = subschemaKeywords[keyword];
      if (!shape) copy[keyword] = value;
      else if (shape.holds === "single") copy[keyword] = this.convert(file, value);
      else if (shape.holds === "list" && Array.isArray(value))
        copy[keyword] = value.map((item) => this.convert(file, item));
      else if (isJsonObject(value))
        copy[keyword] = Object.fromEntries(Object.entries(value).map(([key, item]) => [key, this.convert(file, item)]));
      else copy[keyword] = value;
    }
    const ref = schema["$ref"];
    if (typeof ref !== "string") return copy;
    const target = this.refTo(resolveRef(this.model, file, ref));
    if (Object.keys(copy).every((keyword) => annotationKeywords.has(keyword))) return { ...target, ...copy };
    const allOf: unknown[] = Array.isArray(copy["allOf"]) ? copy["allOf"] : [];
    return { ...copy, allOf: [target, ...allOf] };
  }

  all(): Record<string, unknown> {
    return Object.fromEntries([...this.#schemas].sort(([a], [b]) => (a < b ? -1 : 1)));
  }
}
