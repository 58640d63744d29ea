/**
 * The protocol descriptor: everything the runtime knows about a protocol's methods,
 * notifications and errors. Generated code builds one of these from schema/ (via the
 * `x-rcp` annotations) and hands it to the runtime; the runtime has no list of methods
 * of its own. Adding a method means adding a descriptor, which means editing the schema.
 */

/**
 * A precompiled check of one shape, as emitted by ajv's standalone code: true when `data`
 * matches, with the issues found on `errors` otherwise. The runtime reads descriptors through
 * this type: a guard for `unknown` would narrow a failed check's value to `never`.
 */
export interface ShapeCheck {
  (data: unknown): boolean;
  errors?: readonly ValidationIssue[] | null;
}

/**
 * A generated validator: a ShapeCheck that is also a type guard for its shape's type
 * (`Validator<RetrieveParams>`), so a generated descriptor (a literal `as const`) carries the
 * TypeScript type of every params, result and partial.
 */
export interface Validator<T = unknown> extends ShapeCheck {
  (data: unknown): data is T;
}

/**
 * JSON Schema's string length (`maxLength`, `minLength`): code points, so a surrogate pair is one
 * character. Generated validators call it where ajv's standalone code calls its own `ucs2length`,
 * so that they need nothing but this package at run time.
 */
export function codePointLength(text: string): number {
  let length = 0;
  for (let index = 0; index < text.length; index++, length++) {
    const unit = text.charCodeAt(index);
    if (unit >= 0xd800 && unit <= 0xdbff && (text.charCodeAt(index + 1) & 0xfc00) === 0xdc00) index++;
  }
  return length;
}

/**
 * JSON Schema's equality (`const`, `enum`, `uniqueItems`) on JSON values: same primitives, arrays
 * equal item by item, objects with the same keys and equal values (in any order); NaN equals NaN,
 * as in ajv's `equal` (fast-deep-equal), which generated validators call this instead of.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return a !== a && b !== b;
  if (Array.isArray(a) !== Array.isArray(b) || Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  if (Array.isArray(a))
    return a.length === (b as unknown[]).length && a.every((item, index) => jsonEqual(item, (b as unknown[])[index]));
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every(
    (key) =>
      Object.hasOwn(b, key) && jsonEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
  );
}

/** The subset of an ajv ErrorObject the runtime reads. */
export interface ValidationIssue {
  instancePath: string;
  schemaPath?: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

/** Paths are dotted (`rerank.topN`) and address params or capabilities. */
export type DottedPath = string;

/**
 * An option value the server may only accept when advertised (-32005 unless `strict: false`).
 * Applies when the value at `param` is present and not `false`.
 */
export interface OptionGate {
  param: DottedPath;
  /** The value must be a member of the capability array at this path (e.g. `retrieve.modes`). */
  in?: DottedPath;
  /** The capability value at this path must be present and not `false` (e.g. `retrieve.mmr`). */
  requires?: DottedPath;
  /** Used for `in` when the capability path is absent (e.g. `units` defaults to chunk/passage). */
  default?: readonly unknown[];
  /** Spec section that states the gate, quoted in errors and docs. */
  spec?: string;
}

/** A count that is clamped to an advertised maximum, never rejected for being large (§7.7, §12). */
export interface Clamp {
  param: DottedPath;
  max: DottedPath;
}

/** Present values at these params must not increase along the list (the funnel, §3.3). */
export interface NonIncreasingRule {
  rule: "nonIncreasing";
  params: readonly DottedPath[];
  spec?: string;
}

/** How a method pages (§10): where the cursor goes in params and which result member holds the next one. */
export interface Pagination {
  /** Params path of the cursor, e.g. `cursor`. */
  cursor: DottedPath;
  /** Top-level result member holding the next page's cursor; absent or empty means no more (§10). */
  nextCursor: string;
  spec?: string;
}

/**
 * When a call may be repeated, from the schema's `x-rcp.idempotent` (§7.10, §12.2): a client's
 * retry policy repeats only such calls. `true`: always; otherwise when any condition holds.
 */
export type Idempotence = true | { readonly when: readonly RepeatCondition[]; readonly spec?: string };

/**
 * The param at `present` is present (not undefined or null), e.g. `_meta.idempotencyKey`; with
 * `each`, every item of the array at `each` has it (`{ each: "documents", present: "id" }`).
 */
export interface RepeatCondition {
  readonly present: DottedPath;
  readonly each?: DottedPath;
}

/** A metadata filter tree checked against advertised fields (-32602) and operators (-32005) (§8). */
export interface FilterRule {
  rule: "filter";
  param: DottedPath;
  fields: DottedPath;
  operators: DottedPath;
  spec?: string;
}

/** A rule over several params of a method, from its `x-rcp.rules`: the funnel order or a filter check. */
export type CrossFieldRule = NonIncreasingRule | FilterRule;

/** Session roles the runtime implements itself (§7.1, §7.2, §7.12, §7.15, §13). */
export type LifecycleRole = "initialize" | "info" | "ping" | "shutdown";

/**
 * What a client reads of a method to call it: its gate, its session rule, whether it streams
 * or pages, and the validators of its result and progress partial. Generated code exports one
 * per method (`retrieveCall`), so a client that names the calls it makes carries only their
 * validators; the server's MethodDescriptor adds what checking params needs.
 */
export interface CallDescriptor {
  /** Wire name, e.g. `retrieve`, `index/add`, `x-acme/echo`. */
  readonly method: string;
  /** Capability key that gates the method; null for the ungated lifecycle methods. */
  readonly capability: string | null;
  /** A capability path that must also be truthy, e.g. `index.writable` for `index/add`. */
  readonly requires?: DottedPath;
  /** Callable before a successful initialize (§13). */
  readonly beforeInitialize: boolean;
  /** Implemented by the runtime's session rather than by a user handler. */
  readonly lifecycle?: LifecycleRole;
  /** The handler may report progress (`notifications/progress`, §9). */
  readonly streaming: boolean;
  /** Present when results come in pages; generated clients then offer `<method>Pages()` (§10). */
  readonly pagination?: Pagination;
  /** Present when a call may be repeated without harm (§7.10, §12.2); a client retries only such calls. */
  readonly idempotent?: Idempotence;
  readonly result: ShapeCheck;
  /** Validates `partial` of a progress event, when the method declares one. */
  readonly partial?: ShapeCheck;
  readonly spec?: string;
}

export interface MethodDescriptor extends CallDescriptor {
  /**
   * Its SSE stream may be resumed after a cut, when the server offers it (`x-rcp.resumable`;
   * docs/resumable-streams.md).
   */
  readonly resumable?: boolean;
  /** Param whose `false` turns option gates from errors into fallbacks (§7.7 `strict`). */
  readonly strictParam?: string;
  /**
   * Legacy param names and the canonical name they stand for (`texts` -> `inputs`, §7.3).
   * Absent means none, as for `gates`, `clamps` and `rules`: generated descriptors leave empty ones out.
   */
  readonly aliases?: Readonly<Record<string, string>>;
  readonly gates?: readonly OptionGate[];
  readonly clamps?: readonly Clamp[];
  readonly rules?: readonly CrossFieldRule[];
  readonly params: ShapeCheck;
}

/** What the runtime knows of one notification: its wire name, direction and params validator. */
export interface NotificationDescriptor {
  readonly method: string;
  /** Who sends it. */
  readonly direction: "client" | "server" | "both";
  readonly params: ShapeCheck;
  /** The runtime's own meaning of the notification, when it has one. */
  readonly role?: "progress" | "log" | "cancel";
  readonly spec?: string;
}

/** One error code of the protocol's table (§12): its symbol, message and retry verdict. */
export interface ErrorDescriptor {
  readonly code: number;
  readonly symbol: string;
  readonly message: string;
  /** Retry policy of §12.2. */
  readonly retryable: "yes" | "no" | "maybe" | "n/a";
}

/**
 * The part of a protocol a client needs: versions, log levels, notifications, errors and the
 * calls it may make. A ProtocolDescriptor is one; generated code also exports the lifecycle
 * part alone (`clientProtocol`), which `protocolWithCalls` completes with the calls given.
 */
export interface ClientProtocol {
  /** Highest protocol version this side speaks (§7.1 negotiation). */
  readonly version: number;
  /** Prefix reserved for notifications (§4.5). */
  readonly notificationPrefix: string;
  /** Log levels from least to most severe (§17.1). */
  readonly logLevels: readonly string[];
  readonly methods: Readonly<Record<string, CallDescriptor>>;
  readonly notifications: Readonly<Record<string, NotificationDescriptor>>;
  readonly errors: Readonly<Record<number, ErrorDescriptor>>;
}

export interface ProtocolDescriptor extends ClientProtocol {
  readonly methods: Readonly<Record<string, MethodDescriptor>>;
  /** Validates `_meta` wherever it appears. */
  readonly meta: ShapeCheck;
  /** Validates a static engine registry (`rcp.json`, §16.1): the shared type with `x-rcp` role `registry`. */
  readonly registry?: ShapeCheck;
}

/** What a server's MethodDescriptor adds to its CallDescriptor: what checking params needs. */
export type ServerChecks = Omit<MethodDescriptor, keyof CallDescriptor>;

/**
 * A method's whole descriptor, `call` (what a client reads) plus `checks`, so that generated
 * methods.ts states each fact once. Generated code marks each call `@__PURE__`, so a bundle
 * that reads only `call` drops the whole protocol, params validators included.
 */
export function methodDescriptor<const Call extends CallDescriptor, const Checks extends ServerChecks>(
  call: Call,
  checks: Checks,
): Call & Checks {
  return { ...call, ...checks };
}

/** `base` (the lifecycle methods, notifications and errors) plus `calls`, by wire name. */
export function protocolWithCalls(base: ClientProtocol, calls: readonly CallDescriptor[]): ClientProtocol {
  const methods: Record<string, CallDescriptor> = { ...base.methods };
  for (const call of calls) methods[call.method] = call;
  return { ...base, methods };
}

/**
 * `protocol` as given: code generated by rcp-gen 0.2 and earlier builds its descriptor with this
 * call, where generated code now writes the literal `as const satisfies ProtocolDescriptor`.
 */
export function defineProtocol<const P extends ProtocolDescriptor>(protocol: P): P {
  return protocol;
}
