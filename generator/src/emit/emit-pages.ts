/**
 * `<name>Pages()` on the generated client, for each method whose `x-rcp` declares
 * `pagination` (§10): an async iterable of result pages that follows the cursor until the
 * last page, every page called with the same options (timeout, signal, progress).
 */
import type { MethodDeclarationStructure, OptionalKind, ParameterDeclarationStructure } from "ts-morph";
import { docs } from "./emit-file.js";
import type { LoadedMethod } from "../load/loader.js";
import type { MethodTypeNames } from "../model/method-types.js";
import { camelName } from "../model/naming.js";

export function pagesMembers(
  method: LoadedMethod,
  types: MethodTypeNames,
  params: OptionalKind<ParameterDeclarationStructure>,
  callOptions: string,
  claim: (name: string) => string,
): OptionalKind<MethodDeclarationStructure>[] {
  if (method.annotation["pagination"] === undefined) return [];
  const name = camelName(method.method);
  return [
    {
      name: claim(`${name}Pages`),
      docs: docs(`Like ${name}(), one result page at a time, following the cursor until the last page (§10).`),
      parameters: [params, { name: "options", type: `${callOptions}<${types.partial}>`, hasQuestionToken: true }],
      returnType: `AsyncGenerator<${types.result}, void, undefined>`,
      statements: `return this.pages(${JSON.stringify(method.method)}, params, options);`,
    },
  ];
}
