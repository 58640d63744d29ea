/**
 * The protocol under test, built live from a schema folder: the same descriptor methods.ts
 * holds (model/descriptor.ts), with validators compiled by ajv, so `rcp-gen conform` checks
 * any server against any schema folder without generating code first. Each validator is
 * compiled on its first use: a command that calls one method (`rcp-gen call`) compiles only
 * what that call meets, which is most of its start-up otherwise.
 */
import type { ProtocolDescriptor, Validator } from "@rcp-gen/runtime";
import { readPointer } from "../load/json-pointer.js";
import type { LoadedSchemaFolder } from "../load/loaded-folder.js";
import type { ValidateFunction } from "ajv";
import { compileRef } from "../load/schema-ajv.js";
import { descriptorData } from "../model/descriptor.js";
import { buildModel } from "../model/model.js";

export function conformProtocol(folder: LoadedSchemaFolder): ProtocolDescriptor {
  return descriptorData(buildModel(folder), (shape) => compiledOnUse(() => compileRef(folder, shape.ref)));
}

/** A validator that compiles on its first call; `errors` are those of its last call, as ajv's are. */
function compiledOnUse(compile: () => ValidateFunction): Validator {
  let compiled: ValidateFunction | undefined;
  const check = ((data: unknown) => {
    compiled ??= compile();
    const valid = compiled(data);
    check.errors = compiled.errors ?? null;
    return valid;
  }) as Validator & { errors: Validator["errors"] };
  check.errors = null;
  return check;
}

/** A validator for any schema in the folder, e.g. a capability's metadata. */
export function validatorFor(folder: LoadedSchemaFolder, file: string, pointer: string): Validator | undefined {
  return readPointer(folder.files.get(file), pointer) === undefined
    ? undefined
    : (compileRef(folder, `${file}#${pointer}`) as Validator);
}
