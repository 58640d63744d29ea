/**
 * `<name>Pages()` on the generated client, for each method whose `x-rcp` declares
 * `pagination` (§10): an async iterable of result pages that follows the cursor until the
 * last page, every page called with the same options (timeout, signal, progress).
 */
import type { RcpMethod } from "../model/model.js";
import type { GeneratedFile } from "../plugin/generated-file.js";
import type { ClientMember, MethodTypeNames } from "./shared/method-types.js";

export function pagesMember(
  file: GeneratedFile,
  method: RcpMethod,
  types: MethodTypeNames,
  params: string,
  callOptions: string,
  claim: (name: string) => string,
): ClientMember | undefined {
  if (method.pagination === undefined) return undefined;
  const name = method.camelName;
  return {
    docs: file.jsDoc(`Like ${name}(), one result page at a time, following the cursor until the last page (§10).`),
    name: claim(`${name}Pages`),
    parameters: [params, `options?: ${callOptions}<${types.partial}>`],
    returns: `AsyncGenerator<${types.result}, void, undefined>`,
    statement: `return this.pages(${JSON.stringify(method.method)}, params, options);`,
  };
}
