/**
 * The protocol under test, built live from a schema folder: the same descriptor methods.ts
 * holds (model/descriptor.ts), with validators compiled by ajv, so `rcp-gen conform` checks
 * any server against any schema folder without generating code first.
 */
import type { ProtocolDescriptor, Validator } from "@rcp-gen/runtime";
import { readPointer } from "../load/json-pointer.js";
import type { LoadedSchemaFolder } from "../load/loaded-folder.js";
import { compileRef } from "../load/schema-ajv.js";
import { descriptorData } from "../model/descriptor.js";
import { buildModel } from "../model/model.js";

export function conformProtocol(folder: LoadedSchemaFolder): ProtocolDescriptor {
  return descriptorData(buildModel(folder), (shape) => compileRef(folder, shape.ref));
}

/** A validator for any schema in the folder, e.g. a capability's metadata. */
export function validatorFor(folder: LoadedSchemaFolder, file: string, pointer: string): Validator | undefined {
  return readPointer(folder.files.get(file), pointer) === undefined
    ? undefined
    : (compileRef(folder, `${file}#${pointer}`) as Validator);
}
