/**
 * The params pipeline every method's descriptor drives: aliases, schema validation,
 * option gates, clamps and cross-field rules (§7.7, §8, §12, §3.3). Input params are the
 * parsed request object, owned by the runtime, so they are adjusted in place.
 */
import type { Clamp, MethodDescriptor, OptionGate, ShapeCheck, CrossFieldRule } from "../protocol/descriptor.js";
import { ErrorCode, RcpError, invalidParams } from "../protocol/errors.js";
import { deletePath, getPath, isRecord, setPath } from "../protocol/dotted-paths.js";
import { issueMessage, issuePath, NO_ISSUE_MESSAGE } from "../protocol/validation-issue.js";
import { validateFilter, type AdvertisedFilter } from "../filter/validate.js";

const NO_DEGRADATION: readonly string[] = Object.freeze([]);

/**
 * Runs the whole pipeline; returns the option paths dropped because `strict` was false.
 * Throws RcpError -32602 / -32005 for the first problem. `schemaChecked` skips the schema for
 * params known to match it (checkParams below).
 */
export function prepareParams(
  descriptor: MethodDescriptor,
  params: Record<string, unknown>,
  capabilities: Readonly<Record<string, unknown>>,
  options?: { schemaChecked?: boolean; maxFilterClauses?: number },
): readonly string[] {
  const aliases = descriptor.aliases ?? {};
  for (const legacy in aliases) {
    const canonical = aliases[legacy]!;
    if (params[legacy] !== undefined && params[canonical] === undefined) params[canonical] = params[legacy];
  }
  if (
    options?.schemaChecked !== true &&
    !passes(descriptor.params, params) &&
    !(dropNullMembers(params) && passes(descriptor.params, params))
  )
    throw validationError(descriptor.params);
  let degraded = NO_DEGRADATION;
  if (mayBeGated(descriptor, params)) degraded = applyGates(descriptor, params, capabilities);
  for (const clamp of descriptor.clamps ?? []) {
    const clamped = clampedValue(clamp, params, capabilities);
    if (clamped !== undefined) setPath(params, clamp.param, clamped);
  }
  for (const rule of descriptor.rules ?? []) checkRule(rule, params, capabilities, options?.maxFilterClauses);
  return degraded;
}

/**
 * The pipeline's capability checks (§7.7) on params that must stay as they are, such as the one
 * request a federator checks against each engine's capabilities before asking it. They are
 * copied only when the pipeline would write to them (an alias, an option dropped under
 * `strict: false`, a clamp): a structuredClone costs about 17 µs in a process that has just
 * woken, and most requests need none. The schema is taken as checked.
 */
export function checkParams(
  descriptor: MethodDescriptor,
  params: Record<string, unknown>,
  capabilities: Readonly<Record<string, unknown>>,
): readonly string[] {
  const checked = wouldWrite(descriptor, params, capabilities) ? structuredClone(params) : params;
  return prepareParams(descriptor, checked, capabilities, { schemaChecked: true });
}

function wouldWrite(
  descriptor: MethodDescriptor,
  params: Record<string, unknown>,
  capabilities: Readonly<Record<string, unknown>>,
): boolean {
  const aliases = descriptor.aliases ?? {};
  for (const legacy in aliases) if (params[legacy] !== undefined) return true;
  if (isLenient(descriptor, params) && mayBeGated(descriptor, params)) return true;
  return (descriptor.clamps ?? []).some((clamp) => clampedValue(clamp, params, capabilities) !== undefined);
}

/** `strict: false` (§7.7): an unsupported option is dropped and noted rather than refused. */
function isLenient(descriptor: MethodDescriptor, params: Record<string, unknown>): boolean {
  return descriptor.strictParam !== undefined && params[descriptor.strictParam] === false;
}

/** The advertised maximum a clamp sets its param to, or undefined when the param is within it. */
function clampedValue(
  clamp: Clamp,
  params: Record<string, unknown>,
  capabilities: Readonly<Record<string, unknown>>,
): number | undefined {
  const value = getPath(params, clamp.param);
  const max = getPath(capabilities, clamp.max);
  return typeof value === "number" && typeof max === "number" && value > max ? max : undefined;
}

/** Per method: the top-level params members its option gates read (`fusion` for `fusion.method`). */
const gatedMembers = new WeakMap<MethodDescriptor, ReadonlySet<string>>();

/**
 * Whether any gate may apply: most requests carry none of the gated options, and checking their
 * few members is cheaper than reading every gate's path.
 */
function mayBeGated(descriptor: MethodDescriptor, params: Record<string, unknown>): boolean {
  if (descriptor.gates === undefined || descriptor.gates.length === 0) return false;
  let members = gatedMembers.get(descriptor);
  if (members === undefined) {
    members = new Set(descriptor.gates.map((gate) => gate.param.split(".", 1)[0]!));
    gatedMembers.set(descriptor, members);
  }
  for (const key in params) if (members.has(key)) return true;
  return false;
}

/**
 * A recursive schema (a filter tree) makes its validator recurse with the data, so input
 * nested deep enough overflows the stack: that is malformed params (-32602), not a fault.
 */
function passes(validator: ShapeCheck, params: Record<string, unknown>): boolean {
  try {
    return validator(params);
  } catch (thrown) {
    if (thrown instanceof RangeError) throw invalidParams("params", "nested too deeply to validate");
    throw thrown;
  }
}

/**
 * §4.6: where a schema does not list `null`, a peer MUST treat `null` as absent. No RCP param
 * lists it, so after a failed validation every `null` object member is dropped and the params
 * validated again; valid requests never pay for the walk. Iterative, so depth cannot overflow.
 * Returns whether anything was dropped.
 */
export function dropNullMembers(params: Record<string, unknown>): boolean {
  let dropped = false;
  const pending: unknown[] = [params];
  while (pending.length > 0) {
    const value = pending.pop();
    if (Array.isArray(value)) {
      for (const item of value) pending.push(item);
    } else if (isRecord(value)) {
      for (const key of Object.keys(value)) {
        if (value[key] === null) {
          delete value[key];
          dropped = true;
        } else pending.push(value[key]);
      }
    }
  }
  return dropped;
}

/** -32602 naming the dotted path of the validator's first issue (§12.1 `field`). */
export function validationError(validator: ShapeCheck, root = ""): RcpError {
  const issue = validator.errors?.[0];
  if (!issue) return invalidParams(root || "params", NO_ISSUE_MESSAGE);
  return invalidParams(issuePath(issue, root), issueMessage(issue));
}

/**
 * Checks each present option against what `capabilities` advertise (§7.7): -32005 for the first
 * unsupported one, or, when the strict param is `false`, drops it and lists its path.
 */
export function applyGates(
  descriptor: MethodDescriptor,
  params: Record<string, unknown>,
  capabilities: Readonly<Record<string, unknown>>,
): readonly string[] {
  const lenient = isLenient(descriptor, params);
  let degraded: string[] | undefined;
  for (const gate of descriptor.gates ?? []) {
    const value = getPath(params, gate.param);
    if (value === undefined || value === false) continue;
    const unsupported = unsupportedValue(gate, value, capabilities);
    if (unsupported === undefined) continue;
    const dropped = lenient ? dropOption(descriptor, params, gate.param) : undefined;
    if (dropped === undefined) {
      throw new RcpError(ErrorCode.OptionUnsupported, `Option unsupported: ${gate.param}`, {
        option: gate.param,
        value: unsupported,
        detail: gate.in ? `not among the advertised ${gate.in}` : `${gate.requires} is not advertised`,
      });
    }
    (degraded ??= []).push(dropped);
  }
  return degraded ?? NO_DEGRADATION;
}

/**
 * The `usage.notes` line for an option `strict: false` made the server drop (`ctx.degraded`):
 * §7.7 has a server that falls back say so, in the same words from every engine.
 */
export function fallbackNote(path: string): string {
  return `${path}: not advertised, ignored (strict: false)`;
}

/**
 * Drops an unsupported option (`strict: false`): the option itself or, when that would leave
 * params the schema rejects (`rerank: {}` once its required `method` is gone), the smallest
 * enclosing member whose absence keeps them valid, so a handler never sees params its types
 * deny. Returns the path dropped; undefined when no drop keeps valid params valid.
 */
function dropOption(descriptor: MethodDescriptor, params: Record<string, unknown>, path: string): string | undefined {
  // Partial params (a Selector's criteria) are not whole requests: there the option alone goes.
  const wasValid = passes(descriptor.params, params);
  let dropped = path;
  deletePath(params, dropped);
  while (wasValid && !passes(descriptor.params, params)) {
    const parent = dropped.lastIndexOf(".");
    if (parent < 0) return undefined;
    dropped = dropped.slice(0, parent);
    deletePath(params, dropped);
  }
  return dropped;
}

/** The offending value when the gate fails, undefined when the option is supported. */
function unsupportedValue(gate: OptionGate, value: unknown, capabilities: Readonly<Record<string, unknown>>): unknown {
  if (gate.requires !== undefined) {
    const advertised = getPath(capabilities, gate.requires);
    if (advertised === undefined || advertised === null || advertised === false) return value;
  }
  if (gate.in !== undefined) {
    const allowed = getPath(capabilities, gate.in) ?? gate.default;
    const members: readonly unknown[] = Array.isArray(allowed) ? allowed : [];
    const requested = Array.isArray(value) ? value : [value];
    return requested.find((item) => !members.includes(item));
  }
  return undefined;
}

/** One cross-field rule: the funnel (§3.3) or a filter tree against the advertised fields and operators (§8). */
export function checkRule(
  rule: CrossFieldRule,
  params: Record<string, unknown>,
  capabilities: Readonly<Record<string, unknown>>,
  maxFilterClauses?: number,
): void {
  if (rule.rule === "nonIncreasing") {
    let previousParam: string | undefined;
    let previousValue = Number.POSITIVE_INFINITY;
    for (const param of rule.params) {
      const value = getPath(params, param);
      if (typeof value !== "number") continue;
      if (value > previousValue) {
        throw invalidParams(
          param,
          `${param} (${value}) must not exceed ${previousParam} (${previousValue})${rule.spec ? ` (${rule.spec})` : ""}`,
        );
      }
      previousParam = param;
      previousValue = value;
    }
    return;
  }
  const tree = getPath(params, rule.param);
  if (tree === undefined) return;
  const fields = getPath(capabilities, rule.fields);
  const operators = getPath(capabilities, rule.operators);
  const advertised: AdvertisedFilter = {
    fields: Array.isArray(fields) || isRecord(fields) ? (fields as AdvertisedFilter["fields"]) : undefined,
    operators: Array.isArray(operators) ? (operators as string[]) : undefined,
  };
  validateFilter(tree, advertised, rule.param, maxFilterClauses);
}
