/**
 * The rules of `rcp-gen breaking`, one id each. A change to a schema is a kind of change
 * (narrowed: accepts less; widened: accepts more; changed: both; neutral: neither), and what it
 * breaks depends on who reads the data (compare-schema.ts): a narrowed params schema rejects
 * what deployed clients send, a widened result hands deployed clients what their types do not
 * know. docs/schema-evolution.md explains every rule; a test keeps that page and this list equal.
 */

/** What a change breaks: deployed peers (`wire`), users of the generated TypeScript (`code`), or nothing. */
export type Severity = "wire" | "code" | "safe";

export const severityRank: Readonly<Record<Severity, number>> = {
  safe: 0,
  code: 1,
  wire: 2,
};

/** How a schema change moves the set of values it accepts. */
export type ChangeKind = "narrowed" | "widened" | "changed" | "neutral";

/** Who reads the data a schema describes, so which kind of change breaks the reader. */
export type Direction =
  /** Client → server (params): the new server reads what old clients send; narrowing breaks. */
  | "input"
  /** Server → client (results, partials, server notifications): old clients read what new servers send; widening breaks. */
  | "output"
  /** Both send it (`_meta`, envelopes, notifications either side sends): any change of accepted values breaks. */
  | "both";

export function severityOf(kind: ChangeKind, direction: Direction): Severity {
  if (kind === "neutral") return "safe";
  if (kind === "changed" || direction === "both") return "wire";
  return (kind === "narrowed") === (direction === "input") ? "wire" : "safe";
}

/** Rules on schema keywords: their severity follows from their kind and the direction. */
export const schemaRules = {
  "member-added": {
    kind: "neutral",
    summary: "an optional member was added; readers ignore unknown members (§4.6)",
  },
  "member-removed": {
    kind: "narrowed",
    summary:
      "a member was removed from properties: a server no longer accepts what clients sent; a client reading results never relied on an optional one",
  },
  "required-added": { kind: "narrowed", summary: "a member became required" },
  "required-removed": {
    kind: "widened",
    summary: "a required member was removed or made optional: readers relied on it",
  },
  "type-narrowed": {
    kind: "narrowed",
    summary: "the type accepts fewer JSON types",
  },
  "type-widened": {
    kind: "widened",
    summary: "the type accepts more JSON types",
  },
  "enum-narrowed": {
    kind: "narrowed",
    summary: "enum or const values were removed (or an enum was introduced)",
  },
  "enum-widened": {
    kind: "widened",
    summary: "enum or const values were added (or the enum was dropped)",
  },
  "range-narrowed": {
    kind: "narrowed",
    summary: "a bound (minimum, maxLength, minItems, multipleOf...) was added or tightened",
  },
  "range-widened": {
    kind: "widened",
    summary: "a bound was removed or loosened",
  },
  "pattern-narrowed": {
    kind: "narrowed",
    summary: "a pattern or format was added",
  },
  "pattern-widened": {
    kind: "widened",
    summary: "a pattern or format was removed",
  },
  "pattern-changed": {
    kind: "changed",
    summary: "a pattern or format was replaced by another",
  },
  "alternative-removed": {
    kind: "narrowed",
    summary: "a oneOf/anyOf alternative was removed (or a oneOf/anyOf introduced)",
  },
  "alternative-added": {
    kind: "widened",
    summary: "a oneOf/anyOf alternative was added (or the oneOf/anyOf dropped)",
  },
  "additional-properties-narrowed": {
    kind: "narrowed",
    summary: "additionalProperties (or unevaluatedProperties) now accepts less, or is false",
  },
  "additional-properties-widened": {
    kind: "widened",
    summary: "a map's values (additionalProperties) now accept more",
  },
  "additional-members-allowed": {
    kind: "neutral",
    summary: "additionalProperties: false was lifted; readers ignore unknown members (§4.6)",
  },
  "condition-changed": {
    kind: "changed",
    summary: "if, not, dependentRequired or another constraint changed",
  },
  rewritten: {
    kind: "neutral",
    summary: "written differently, accepting the same values (reordered alternatives, an equivalent type list)",
  },
  "unclassified-change": {
    kind: "changed",
    summary: "a change no rule understands; treated as breaking until a person says otherwise",
  },
  "doc-changed": {
    kind: "neutral",
    summary: "a description, title of a method shape, example, spec reference or error message changed",
  },
} as const satisfies Record<string, { kind: ChangeKind; summary: string }>;

/** Rules on the folder's names and annotations, each with a fixed severity. */
export const folderRules = {
  "method-added": { severity: "safe", summary: "a method was added" },
  "method-removed": { severity: "wire", summary: "a method was removed" },
  "method-renamed": {
    severity: "wire",
    summary: "a method's wire name changed (same file or same shapes)",
  },
  "method-gate-changed": {
    severity: "wire",
    summary: "a method's gating capability (x-rcp capability or requires) changed",
  },
  "streaming-removed": {
    severity: "wire",
    summary: "a method no longer streams (x-rcp streaming turned off)",
  },
  "streaming-added": {
    severity: "safe",
    summary: "a method may now stream progress; a client sees it only when it asks (§9)",
  },
  "partial-removed": {
    severity: "wire",
    summary: "a streaming method's partial schema was removed",
  },
  "partial-added": {
    severity: "safe",
    summary: "a method gained a partial schema",
  },
  "before-initialize-changed": {
    severity: "wire",
    summary: "whether a method may be called before initialize changed",
  },
  "lifecycle-changed": {
    severity: "wire",
    summary: "the lifecycle role (initialize, ping, shutdown...) a method plays changed",
  },
  "option-gate-added": {
    severity: "wire",
    summary: "an option gate was added: a param value clients send may now be -32005",
  },
  "option-gate-removed": {
    severity: "safe",
    summary: "an option gate was removed",
  },
  "cross-field-rule-added": {
    severity: "wire",
    summary: "a cross-field rule was added: params clients send may now be rejected",
  },
  "cross-field-rule-removed": {
    severity: "safe",
    summary: "a cross-field rule was removed",
  },
  "clamp-changed": {
    severity: "safe",
    summary: "a clamp was added or removed: values are clamped, never rejected",
  },
  "param-alias-removed": {
    severity: "wire",
    summary: "a param alias was removed: clients sending it are no longer understood",
  },
  "param-alias-added": { severity: "safe", summary: "a param alias was added" },
  "pagination-changed": {
    severity: "wire",
    summary: "a method's pagination members were removed or renamed",
  },
  "pagination-added": {
    severity: "safe",
    summary: "a method gained pagination",
  },
  "strict-param-changed": {
    severity: "wire",
    summary: "a method's strict param was removed or renamed",
  },
  "strict-param-added": {
    severity: "safe",
    summary: "a method gained a strict param",
  },
  "idempotence-weakened": {
    severity: "wire",
    summary: "calls once safe to repeat no longer are (or under fewer conditions)",
  },
  "idempotence-strengthened": {
    severity: "safe",
    summary: "calls became safe to repeat",
  },
  "notification-added": {
    severity: "safe",
    summary: "a notification was added",
  },
  "notification-removed": {
    severity: "wire",
    summary: "a notification was removed",
  },
  "notification-renamed": {
    severity: "wire",
    summary: "a notification's wire name changed",
  },
  "notification-direction-changed": {
    severity: "wire",
    summary: "who sends a notification, or what the runtime does with it, changed",
  },
  "capability-added": {
    severity: "safe",
    summary: "a capability key was added",
  },
  "capability-removed": {
    severity: "wire",
    summary: "a capability key was removed",
  },
  "capability-renamed": {
    severity: "wire",
    summary: "a capability key was renamed (same definition, new key)",
  },
  "method-hint-changed": {
    severity: "safe",
    summary:
      "a method's descriptive annotation (writes, destructive: MCP tool hints; errors: the domain errors it documents) changed; no peer reads it from the wire",
  },
  "error-code-added": { severity: "safe", summary: "an error code was added" },
  "error-code-removed": {
    severity: "wire",
    summary: "an error code was removed",
  },
  "error-code-renamed": {
    severity: "wire",
    summary: "an error symbol now has another code",
  },
  "error-symbol-renamed": {
    severity: "code",
    summary: "an error code's symbol (its name in generated code) changed",
  },
  "error-retryable-changed": {
    severity: "safe",
    summary: "an error's §12.2 retry verdict changed; deployed clients keep theirs",
  },
  "protocol-version-changed": {
    severity: "wire",
    summary: "the protocol version changed",
  },
  "notification-prefix-changed": {
    severity: "wire",
    summary: "the notification prefix changed",
  },
  "type-added": { severity: "safe", summary: "a shared type was added" },
  "type-removed": {
    severity: "code",
    summary: "a shared type (types/*.json) is gone from the generated code",
  },
  "type-role-added": {
    severity: "safe",
    summary: "a shared type gained an x-rcp role (a validator of its own in the descriptor)",
  },
  "type-role-changed": {
    severity: "code",
    summary: "a shared type's x-rcp role was removed or changed: code finding its validator by that role breaks",
  },
  "type-renamed": {
    severity: "code",
    summary: "a titled schema, hence its generated TypeScript name, was renamed",
  },
  "required-added-in-output": {
    severity: "code",
    summary: "a result or partial member became required: handlers must now return it",
  },
} as const satisfies Record<string, { severity: Severity; summary: string }>;

export type SchemaRuleId = keyof typeof schemaRules;
export type FolderRuleId = keyof typeof folderRules;
export type RuleId = SchemaRuleId | FolderRuleId;

export interface Finding {
  readonly rule: RuleId;
  readonly severity: Severity;
  /** The file in the new folder (the old one for what was removed). */
  readonly file: string;
  /** RFC 6901 pointer inside that file. */
  readonly pointer: string;
  readonly message: string;
  /** Which methods, notifications or files reach the change, e.g. `retrieve result`. */
  readonly via: readonly string[];
}
