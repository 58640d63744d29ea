/**
 * Builds the single input schema handed to json-schema-to-typescript: every shape under
 * `$defs`, with each `$ref` replaced by the very object it points to. Shared types are thus
 * one object wherever they are used, so they are declared once (no `Hit1`), and recursion
 * becomes a cycle in the object graph.
 */
import { readPointer } from "../../load/json-pointer.js";
import { schemaIdBase } from "../../load/loader.js";
import { subschemaKeywords } from "../../load/schema-walk.js";
import type { RcpModel } from "../../model/model.js";

type SchemaObject = Record<string, unknown>;

/** Keywords that only matter to validation or to the loader, never to TypeScript types. */
const droppedKeywords = new Set(["$schema", "$id", "$defs", "definitions", "$comment", "$anchor"]);

const isRecord = (value: unknown): value is SchemaObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

export function buildTypeSchema(model: RcpModel): SchemaObject {
  const folder = model.schema;
  const built = new Map<string, SchemaObject>();
  const source = (file: string, pointer: string) => readPointer(folder.files.get(file), pointer);

  /** The one object standing for a location; filled after registering, so cycles close. */
  const objectAt = (file: string, pointer: string): SchemaObject => {
    const key = `${file}#${pointer}`;
    const existing = built.get(key);
    if (existing) return existing;
    const target: SchemaObject = {};
    built.set(key, target);
    Object.assign(target, convertNode(file, source(file, pointer)));
    // A titled schema becomes a declaration of its own: its doc comment says where it comes from.
    if (typeof target["title"] === "string") withProvenance(target, file, pointer);
    return target;
  };

  const refTarget = (file: string, ref: string): SchemaObject => {
    const url = new URL(ref, folder.idOf(file));
    const pointer = decodeURIComponent(url.hash.slice(1));
    url.hash = "";
    return objectAt(url.href.slice(schemaIdBase.length), pointer);
  };

  /** A subschema: a bare `$ref` is the shared target object itself. */
  const convertSchema = (file: string, node: unknown): unknown => {
    if (!isRecord(node)) return node;
    const keys = Object.keys(node);
    if (keys.length === 1 && typeof node["$ref"] === "string") return refTarget(file, node["$ref"]);
    return convertNode(file, node);
  };

  /** A schema object of its own: `$ref` beside other keywords becomes an `allOf` member. */
  const convertNode = (file: string, node: unknown): unknown => {
    if (!isRecord(node)) return node;
    const copy: SchemaObject = {};
    for (const [keyword, value] of Object.entries(node)) {
      if (droppedKeywords.has(keyword) || keyword.startsWith("x-")) continue;
      const shape = subschemaKeywords[keyword];
      if (keyword === "$ref" && typeof value === "string") copy["allOf"] = [refTarget(file, value)];
      // Beside additionalProperties the one index signature must also admit other keys: left as is.
      else if (keyword === "patternProperties" && node["additionalProperties"] === undefined && isVendorPattern(value))
        copy[keyword] = markVendorPattern(value);
      else if (!shape) copy[keyword] = value;
      else if (shape.holds === "single") copy[keyword] = convertSchema(file, value);
      else if (shape.holds === "list" && Array.isArray(value))
        copy[keyword] = value.map((item) => convertSchema(file, item));
      else if (isRecord(value))
        copy[keyword] = Object.fromEntries(
          Object.entries(value).map(([key, item]) => [key, convertSchema(file, item)]),
        );
    }
    if (Array.isArray(node["allOf"]) && typeof node["$ref"] === "string")
      copy["allOf"] = [refTarget(file, node["$ref"]), ...node["allOf"].map((item) => convertSchema(file, item))];
    return withAlternativesApart(copy);
  };

  const meta = objectAt("meta.json", "/$defs/meta");
  const defs: Record<string, SchemaObject> = {};
  for (const shape of model.shapes) {
    // A shape always gets an object of its own, even when it is only a `$ref`, so its name exists.
    const shapeSchema = objectAt(shape.file, shape.pointer);
    if (shapeSchema["title"] === undefined) withProvenance(shapeSchema, shape.file, shape.pointer);
    shapeSchema["title"] = shape.typeName;
    if (shape.carriesMeta) addMeta(shapeSchema, meta);
    defs[shape.typeName] = shapeSchema;
  }
  return { title: "RcpTypes", type: "object", additionalProperties: false, properties: {}, $defs: defs };
}

/**
 * `x-` extension keys (§6.2) are a `^x-` patternProperties whose values are plain objects or
 * anything. json-schema-to-typescript would type them as a `[k: string]` index signature,
 * which lets any typo through (`retreive: {}`); the marker below lets emit-types narrow the
 * key to `x-${string}` instead.
 */
export const vendorMarker = "RcpVendorExtension__";
const VENDOR_PATTERN = "^x-";

function isVendorPattern(value: unknown): value is Record<string, SchemaObject> {
  return isRecord(value) && Object.keys(value).length === 1 && vendorValueType(value[VENDOR_PATTERN]) !== undefined;
}

/** The TypeScript type of a vendor value, for the shapes the marker supports. */
function vendorValueType(schema: unknown): string | undefined {
  if (!isRecord(schema)) return undefined;
  const keys = Object.keys(schema).filter((key) => key !== "description");
  if (keys.length === 0) return "unknown";
  // `object`, not a record type: a vendor's own named capability interface must fit it too;
  // `undefined` because an optional named `x-acme` property is `T | undefined`.
  if (keys.length === 1 && schema["type"] === "object") return "object | undefined";
  return undefined;
}

function markVendorPattern(value: Record<string, SchemaObject>): SchemaObject {
  const schema = value[VENDOR_PATTERN]!;
  return { [VENDOR_PATTERN]: { ...schema, tsType: `${vendorMarker}<${vendorValueType(schema)}>` } };
}

/** Keywords that make the object part of a schema (its members), as opposed to its alternatives. */
const objectKeywords = ["type", "properties", "required", "additionalProperties", "patternProperties"];

/**
 * Members beside `anyOf`/`oneOf` (graph's result: shared members, then one shape per op):
 * json-schema-to-typescript declares the two halves under numbered names (GraphResult1,
 * GraphResult2) that leak into types.ts. As an `allOf` of two untitled parts they are written
 * in place, `{ ... } & (A | B)`, under the schema's own name only.
 */
function withAlternativesApart(schema: SchemaObject): SchemaObject {
  const alternatives = schema["anyOf"] !== undefined ? "anyOf" : schema["oneOf"] !== undefined ? "oneOf" : undefined;
  if (alternatives === undefined || schema["properties"] === undefined) return schema;
  const members: SchemaObject = {};
  const rest: SchemaObject = {};
  for (const [keyword, value] of Object.entries(schema))
    if (objectKeywords.includes(keyword)) members[keyword] = value;
    else if (keyword !== alternatives && keyword !== "allOf") rest[keyword] = value;
  const allOf: unknown[] = Array.isArray(schema["allOf"]) ? schema["allOf"] : [];
  return { ...rest, allOf: [...allOf, members, { [alternatives]: schema[alternatives] }] };
}

/** `@generated from methods/retrieve.json#/$defs/params` after the schema's description. */
function withProvenance(schema: SchemaObject, file: string, pointer: string): void {
  const from = `@generated from ${pointer === "" ? file : `${file}#${pointer}`}`;
  const description = typeof schema["description"] === "string" ? schema["description"] : "";
  schema["description"] = description === "" ? from : `${description}\n\n${from}`;
}

/** Adds `_meta` to an object shape that lacks it; a shape that only composes others inherits theirs. */
function addMeta(shape: SchemaObject, meta: SchemaObject): void {
  if (shape["type"] !== "object" && !isRecord(shape["properties"])) return;
  const properties = isRecord(shape["properties"]) ? shape["properties"] : {};
  if (properties["_meta"] === undefined)
    shape["properties"] = { ...properties, _meta: { description: "Side-band data (§4.4).", allOf: [meta] } };
}
