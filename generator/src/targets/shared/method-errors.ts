/**
 * The errors the runtime answers for a method before (or instead of) its handler, read from
 * its annotation: what the docs targets list under each method. A handler may answer other
 * codes of the error table too (-32010 and the like); those depend on the engine.
 */
import type { RcpErrorCode, RcpMethod, RcpModel } from "../../model/model.js";

export interface MethodError {
  readonly error: RcpErrorCode;
  /** When the runtime answers it, in a sentence. */
  readonly when: string;
}

const code = (text: string) => `\`${text}\``;

export function methodErrors(model: RcpModel, method: RcpMethod): MethodError[] {
  const bySymbol = new Map(model.errors.map((error) => [error.symbol, error]));
  const found: MethodError[] = [];
  const add = (symbol: string, reasons: readonly string[]) => {
    const error = bySymbol.get(symbol);
    if (error !== undefined && reasons.length > 0) found.push({ error, when: reasons.join("; ") });
  };
  const filters = method.rules.flatMap((rule) => (rule.rule === "filter" ? [rule] : []));
  add("InvalidParams", [
    "params do not match the schema (`error.data.field` names the first wrong member)",
    ...method.rules.flatMap((rule) =>
      rule.rule === "nonIncreasing" ? [`${rule.params.map(code).join(" >= ")} does not hold`] : [],
    ),
    ...filters.map((rule) => `${code(rule.param)} names a field not in ${code(rule.fields)}`),
  ]);
  add("NotInitialized", method.beforeInitialize ? [] : ["called before `initialize` succeeded (stdio, stateful HTTP)"]);
  add(
    "CapabilityMissing",
    method.capability === null
      ? []
      : [
          `the server does not advertise ${code(method.capability)}${method.requires === undefined ? "" : ` with ${code(method.requires)}`}`,
        ],
  );
  add("OptionUnsupported", [
    ...method.gates.map((gate) =>
      gate.in !== undefined
        ? `${code(gate.param)} is a value not in ${code(gate.in)}`
        : `${code(gate.param)} is set while ${code(gate.requires ?? "")} is not advertised`,
    ),
    ...filters.map((rule) => `${code(rule.param)} uses an operator not in ${code(rule.operators)}`),
  ]);
  if (method.strictParam !== undefined && method.gates.length > 0) {
    const last = found.at(-1);
    if (last?.error.symbol === "OptionUnsupported")
      found[found.length - 1] = {
        ...last,
        when: `${last.when} (\`${method.strictParam}: false\` makes these fall back instead)`,
      };
  }
  if (method.lifecycle === undefined) {
    add("Cancelled", ["the client cancelled it (`notifications/cancel`, or an HTTP client closing the stream)"]);
    add("Timeout", ["its deadline passed (`_meta.deadlineMs`, or the server's default)"]);
  }
  return found;
}
