/**
 * The named shapes of a schema folder, in a fixed order: the params, result and partial of
 * every method, the params of every notification, shared types, capabilities and `_meta`.
 * Types, validators and descriptors are all emitted from this one list. A shared type with an
 * `x-rcp` role (the registry, §16.1) also gets a validator, named after its role.
 */
import { readPointer } from "../load/json-pointer.js";
import type { LoadedSchemaFolder } from "../load/loader.js";
import { shapeTypeName, shapeValidatorName, type ShapeRole } from "./naming.js";

export interface Shape {
  /** TypeScript type name, e.g. IndexAddParams, Hit, ServerCapabilities. */
  readonly typeName: string;
  /** validators.ts export, when the shape has a precompiled validator. */
  readonly validatorName?: string;
  readonly file: string;
  readonly pointer: string;
  /** Params and result objects always carry a typed `_meta` (§4.4). */
  readonly carriesMeta: boolean;
  /** A shared type's `x-rcp` role: the runtime finds its validator in the protocol descriptor under this name. */
  readonly role?: string;
}

const roles: readonly [ShapeRole, string][] = [
  ["Params", "/$defs/params"],
  ["Result", "/$defs/result"],
  ["Partial", "/$defs/partial"],
];

export function methodShapes(folder: LoadedSchemaFolder): Shape[] {
  return [...folder.methods, ...folder.notifications].flatMap(({ file, method }) =>
    roles
      .filter(([, pointer]) => readPointer(folder.files.get(file), pointer) !== undefined)
      .map(([role, pointer]) => {
        const name = typeBaseName(folder, method);
        return {
          typeName: shapeTypeName(name, role),
          validatorName: shapeValidatorName(name, role),
          file,
          pointer,
          carriesMeta: role !== "Partial",
        };
      }),
  );
}

/**
 * The name types and validators of a wire name start from: `index/add` as is,
 * `notifications/progress` as `progress notification` (ProgressNotificationParams).
 */
function typeBaseName(folder: LoadedSchemaFolder, wireName: string): string {
  const prefix = (folder.files.get("protocol.json") as { "x-rcp": { notificationPrefix: string } })["x-rcp"]
    .notificationPrefix;
  return wireName.startsWith(prefix) ? `${wireName.slice(prefix.length)} notification` : wireName;
}

export const metaShape: Shape = {
  typeName: "Meta",
  validatorName: "meta",
  file: "meta.json",
  pointer: "/$defs/meta",
  carriesMeta: false,
};

export function allShapes(folder: LoadedSchemaFolder): Shape[] {
  const sharedTypes = [...folder.files.keys()]
    .filter((path) => path.startsWith("types/"))
    .map((file): Shape => {
      const document = folder.files.get(file) as { title?: string; "x-rcp"?: { role: string } };
      const role = document["x-rcp"]?.role;
      return {
        typeName: String(document.title),
        file,
        pointer: "",
        carriesMeta: false,
        ...(role === undefined ? {} : { role, validatorName: role }),
      };
    });
  return [
    ...methodShapes(folder),
    metaShape,
    ...sharedTypes,
    {
      typeName: "ServerCapabilities",
      file: "capabilities.json",
      pointer: "/$defs/serverCapabilities",
      carriesMeta: false,
    },
    {
      typeName: "ClientCapabilities",
      file: "capabilities.json",
      pointer: "/$defs/clientCapabilities",
      carriesMeta: false,
    },
  ];
}
