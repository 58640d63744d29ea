/** The params/result/partial type names of one method, imported from types.ts as they are used. */
import type { GeneratedFile } from "../emit/emit-file.js";
import type { LoadedMethod, LoadedSchemaFolder } from "../load/loader.js";
import type { Shape } from "./shapes.js";

export interface MethodTypeNames {
  params: string;
  result: string;
  /** `never` when the method does not stream; `unknown` when it streams without a partial schema. */
  partial: string;
}

export function methodTypes(file: GeneratedFile, shapes: readonly Shape[], method: LoadedMethod): MethodTypeNames {
  const typeAt = (pointer: string) => {
    const shape = shapes.find((candidate) => candidate.file === method.file && candidate.pointer === pointer);
    return shape ? file.use("./types.js", shape.typeName, true) : undefined;
  };
  const streaming = method.annotation["streaming"] === true;
  return {
    params: typeAt("/$defs/params") ?? "never",
    result: typeAt("/$defs/result") ?? "never",
    partial: streaming ? (typeAt("/$defs/partial") ?? "unknown") : "never",
  };
}

/** Methods a user implements and calls; the runtime's session answers lifecycle methods itself. */
export function userMethods(folder: LoadedSchemaFolder): LoadedMethod[] {
  return folder.methods.filter((method) => method.annotation["lifecycle"] === undefined);
}
