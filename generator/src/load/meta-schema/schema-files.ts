/**
 * The documents of a schema folder as the meta-schemas beside this file admit them: one type
 * per kind of file, and one per `x-rcp` annotation block. Written once, here, and kept equal to
 * the meta-schemas by a test (test/generator/schema-file-types.test.ts), which generates types
 * from the JSON files and checks both directions of assignability. The loader reaches these
 * types only through the meta-schema validators (meta-check.ts), never by casting.
 *
 * The parts the runtime reads (gates, clamps, rules, pagination) are the runtime's own types:
 * the protocol descriptor carries them as the schema wrote them.
 */
import type { ErrorObject } from "ajv/dist/2020.js";
import type { Clamp, CrossFieldRule, Idempotence, LifecycleRole, OptionGate, Pagination } from "@rcp-gen/runtime";

/** A JSON Schema object as written in a file: any keywords, read as unknown until checked. */
export interface JsonSchema {
  readonly title?: string;
  readonly description?: string;
  readonly [keyword: string]: unknown;
}

/** A file's `$defs`: named subschemas. */
export type SchemaDefinitions = Readonly<Record<string, JsonSchema | boolean>>;

/** `x-rcp` of a method file (method-file.json `#/$defs/annotation`). */
export interface MethodAnnotation {
  readonly kind: "method";
  /** The wire name: `<verb>`, `<verb>/<sub>` or `x-<vendor>/<name>`. */
  readonly method: string;
  readonly spec?: string;
  /** The capability key that gates the method, or null for lifecycle methods. */
  readonly capability: string | null;
  /** A capability path that must also be truthy (`index.writable`). */
  readonly requires?: string;
  readonly beforeInitialize?: boolean;
  readonly lifecycle?: LifecycleRole;
  readonly streaming?: boolean;
  /** Whether a cut SSE stream may be resumed; default: streaming methods other than lifecycle ones. */
  readonly resumable?: boolean;
  readonly strictParam?: string;
  readonly pagination?: Pagination;
  /** `true` (repeat as it is), `false` (the default) or the conditions under which a repeat is harmless. */
  readonly idempotent?: boolean | Exclude<Idempotence, true>;
  /** Symbols of errors.json the handler answers for its own reasons (`NotFound` for an unknown id). */
  readonly errors?: readonly string[];
  /** Whether a call may change the server's state; `false` (read-only) by default. */
  readonly writes?: boolean;
  /** Whether a write may remove or overwrite what was there (only with `writes: true`); `false` by default. */
  readonly destructive?: boolean;
  /** Other param names the server accepts -> the canonical name each stands for. */
  readonly aliases?: Readonly<Record<string, string>>;
  readonly gates?: readonly OptionGate[];
  readonly clamps?: readonly Clamp[];
  readonly rules?: readonly CrossFieldRule[];
  /** How a result follows from the request, for tools that make results (rcp-gen mock). */
  readonly results?: readonly ResultRule[];
  /** The pipeline stages a call's progress names, in order (§9). */
  readonly stages?: readonly string[];
}

/**
 * How a result follows from its request, where the result's schema alone cannot say: `atMost`
 * (the list at `result` holds at most `param` items, best first by `rankedBy`), `onePer` (one
 * item per item of the `param` list, in order), `length` (each item of the list is an array as
 * long as the capability at `capability` says), `order` (the indexes of the numbers at `of`,
 * highest first).
 */
export type ResultRule =
  | {
      readonly rule: "atMost";
      readonly result: string;
      readonly param: string;
      readonly rankedBy?: string;
      readonly spec?: string;
    }
  | { readonly rule: "onePer"; readonly result: string; readonly param: string; readonly spec?: string }
  | { readonly rule: "length"; readonly result: string; readonly capability: string; readonly spec?: string }
  | { readonly rule: "order"; readonly result: string; readonly of: string; readonly spec?: string };

/** `x-rcp` of a notification file. */
export interface NotificationAnnotation {
  readonly kind: "notification";
  readonly method: string;
  /** Who sends it. */
  readonly direction: "client" | "server" | "both";
  /** What the runtime does with it, when it has a meaning of its own. */
  readonly role?: "progress" | "log" | "cancel";
  readonly spec?: string;
}

/** `x-rcp` of a shared type the runtime must find (types/registry.json). */
export interface TypeAnnotation {
  readonly kind: "type";
  readonly role: "registry";
  readonly spec?: string;
}

/** `x-rcp` of protocol.json. */
export interface ProtocolAnnotation {
  readonly kind: "protocol";
  /** The protocol's short name (`RCP`): docs and doc comments call it `<name>/<version>`. */
  readonly name?: string;
  readonly version: number;
  /** The prefix reserved for notifications (§4.5), e.g. `notifications/`. */
  readonly notificationPrefix: string;
  readonly spec?: string;
}

/** One entry of errors.json's code table (§12). */
export interface ErrorCodeEntry {
  readonly code: number;
  /** PascalCase, e.g. `CapabilityMissing`. */
  readonly symbol: string;
  readonly message: string;
  /** The §12.2 retry verdict. */
  readonly retryable: "yes" | "no" | "maybe" | "n/a";
  readonly spec?: string;
}

/** `x-rcp` of errors.json. */
export interface ErrorsAnnotation {
  readonly kind: "errors";
  readonly codes: readonly ErrorCodeEntry[];
}

export interface ProtocolFile extends JsonSchema {
  readonly "x-rcp": ProtocolAnnotation;
  readonly $defs: SchemaDefinitions & {
    readonly request: JsonSchema;
    readonly notification: JsonSchema;
    readonly response: JsonSchema;
  };
}

export interface MetaFile extends JsonSchema {
  readonly $defs: SchemaDefinitions & {
    readonly meta: JsonSchema;
    /** The log levels, least severe first (§17.1). */
    readonly logLevel: JsonSchema & { readonly enum: readonly string[] };
  };
}

export interface ErrorsFile extends JsonSchema {
  readonly "x-rcp": ErrorsAnnotation;
}

export interface CapabilitiesFile extends JsonSchema {
  readonly $defs: SchemaDefinitions & {
    readonly serverCapabilities: JsonSchema;
    readonly clientCapabilities: JsonSchema;
  };
}

export interface TypeFile extends JsonSchema {
  /** The TypeScript name of the type, PascalCase. */
  readonly title: string;
  readonly "x-rcp"?: TypeAnnotation;
}

export interface NotificationFile extends JsonSchema {
  readonly "x-rcp": NotificationAnnotation;
  readonly $defs: SchemaDefinitions & { readonly params: JsonSchema };
}

export interface MethodFile extends JsonSchema {
  readonly "x-rcp": MethodAnnotation;
  readonly $defs: SchemaDefinitions & {
    readonly params: JsonSchema;
    readonly result: JsonSchema;
    readonly partial?: JsonSchema;
  };
}

/** The document type of each kind of file (folder-layout.ts says where each lives). */
export interface SchemaFileDocuments {
  protocol: ProtocolFile;
  meta: MetaFile;
  errors: ErrorsFile;
  capabilities: CapabilitiesFile;
  type: TypeFile;
  notification: NotificationFile;
  method: MethodFile;
}

/** A file that passed the meta-schema of its place: its kind and its typed document. */
export type CheckedSchemaFile = {
  [K in keyof SchemaFileDocuments]: {
    readonly kind: K;
    readonly path: string;
    readonly document: SchemaFileDocuments[K];
  };
}[keyof SchemaFileDocuments];

/** A precompiled meta-schema validator (checkers.ts): a guard whose failures are in `errors`. */
export type MetaChecker<T> = ((data: unknown) => data is T) & { errors?: ErrorObject[] | null };
