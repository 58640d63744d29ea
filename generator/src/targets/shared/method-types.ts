/** The params/result/partial type names of one method, imported from types.ts as they are used; a client method's parts. */
import type { RcpMethod } from "../../model/model.js";
import type { GeneratedFile } from "../../plugin/generated-file.js";

export interface MethodTypeNames {
  params: string;
  result: string;
  /** `never` when the method does not stream; `unknown` when it streams without a partial schema. */
  partial: string;
}

export function methodTypes(file: GeneratedFile, method: RcpMethod): MethodTypeNames {
  const typeOf = (typeName: string) => file.import(typeName, file.relative("types.ts"), { typeOnly: true });
  return {
    params: typeOf(method.params.typeName),
    result: typeOf(method.result.typeName),
    partial: method.streaming ? (method.partial ? typeOf(method.partial.typeName) : "unknown") : "never",
  };
}

/** One method of the client class: its doc comment, name, parameters, return type and the one statement of its body. */
export interface ClientMember {
  readonly docs: string;
  readonly name: string;
  readonly parameters: readonly string[];
  readonly returns: string;
  readonly statement: string;
}
