/**
 * The named shapes of a schema folder, in a fixed order: the params, result and partial of
 * every method, the params of every notification, shared types, capabilities and `_meta`.
 * Types, validators and descriptors are all emitted from this one list. A shared type with an
 * `x-rcp` role (the registry, §16.1) also gets a validator, named after its role.
 */
import type { LoadedSchemaFolder } from "../load/loaded-folder.js";
import type { JsonSchema, TypeAnnotation } from "../load/meta-schema/schema-files.js";
import { shapeTypeName, shapeValidatorName, type ShapeRole } from "./naming.js";

/** A schema a type and a validator are generated for: a method's params, result or partial, a notification's params, or a shared type. */
export interface Shape {
  /** TypeScript type name, e.g. IndexAddParams, Hit, ServerCapabilities. */
  readonly typeName: string;
  /** validators.ts export, when the shape has a precompiled validator. */
  readonly validatorName?: string;
  /** Its file in the schema folder, e.g. `methods/index-add.json`. */
  readonly file: string;
  /** Its JSON pointer in that file, e.g. `/$defs/params` ("" for a whole file). */
  readonly pointer: string;
  /** `methods/index-add.json#/$defs/params`: where it comes from, as doc comments cite it. */
  readonly ref: string;
  /** The schema as written in the file. */
  readonly schema: JsonSchema;
  /** Params and result objects always carry a typed `_meta` (§4.4). */
  readonly carriesMeta: boolean;
  /** A shared type's `x-rcp` role: the runtime finds its validator in the protocol descriptor under this name. */
  readonly role?: TypeAnnotation["role"];
}

const roles: readonly [ShapeRole, "params" | "result" | "partial"][] = [
  ["Params", "params"],
  ["Result", "result"],
  ["Partial", "partial"],
];

function shape(fields: Omit<Shape, "ref">): Shape {
  return { ...fields, ref: fields.pointer === "" ? fields.file : `${fields.file}#${fields.pointer}` };
}

export function methodShapes(folder: LoadedSchemaFolder): Shape[] {
  const prefix = folder.protocol["x-rcp"].notificationPrefix;
  return [...folder.methods, ...folder.notifications].flatMap(({ file, method, document }) => {
    const definitions: Partial<Record<(typeof roles)[number][1], JsonSchema>> = document.$defs;
    return roles.flatMap(([role, key]) => {
      const schema = definitions[key];
      if (schema === undefined) return [];
      const name = typeBaseName(prefix, method);
      return [
        shape({
          typeName: shapeTypeName(name, role),
          validatorName: shapeValidatorName(name, role),
          file,
          pointer: `/$defs/${key}`,
          schema,
          carriesMeta: role !== "Partial",
        }),
      ];
    });
  });
}

/**
 * The name types and validators of a wire name start from: `index/add` as is,
 * `notifications/progress` as `progress notification` (ProgressNotificationParams).
 */
function typeBaseName(prefix: string, wireName: string): string {
  return wireName.startsWith(prefix) ? `${wireName.slice(prefix.length)} notification` : wireName;
}

export function metaShape(folder: LoadedSchemaFolder): Shape {
  return shape({
    typeName: "Meta",
    validatorName: "meta",
    file: "meta.json",
    pointer: "/$defs/meta",
    schema: folder.meta.$defs.meta,
    carriesMeta: false,
  });
}

export function allShapes(folder: LoadedSchemaFolder): Shape[] {
  const sharedTypes = folder.types.map(({ file, document }): Shape => {
    const role = document["x-rcp"]?.role;
    return shape({
      typeName: document.title,
      file,
      pointer: "",
      schema: document,
      carriesMeta: false,
      ...(role === undefined ? {} : { role, validatorName: role }),
    });
  });
  const capabilities = folder.capabilities.$defs;
  return [
    ...methodShapes(folder),
    metaShape(folder),
    ...sharedTypes,
    shape({
      typeName: "ServerCapabilities",
      file: "capabilities.json",
      pointer: "/$defs/serverCapabilities",
      schema: capabilities.serverCapabilities,
      carriesMeta: false,
    }),
    shape({
      typeName: "ClientCapabilities",
      file: "capabilities.json",
      pointer: "/$defs/clientCapabilities",
      schema: capabilities.clientCapabilities,
      carriesMeta: false,
    }),
  ];
}
