/**
 * What loading produces (loader.ts): a schema folder that passed every check, its documents by
 * kind, and the `$id` each file was given. Everything else in the generator reads this.
 */
import type {
  CapabilitiesFile,
  ErrorCodeEntry,
  JsonSchema,
  MetaFile,
  MethodAnnotation,
  MethodFile,
  NotificationAnnotation,
  NotificationFile,
  ProtocolFile,
  TypeFile,
} from "./meta-schema/schema-files.js";

export interface LoadedMethod {
  readonly file: string;
  /** The wire name. */
  readonly method: string;
  /** The x-rcp block. */
  readonly annotation: MethodAnnotation;
  readonly document: MethodFile;
}

export interface LoadedNotification {
  readonly file: string;
  readonly method: string;
  readonly annotation: NotificationAnnotation;
  readonly document: NotificationFile;
}

/** A shared type (types/*.json). */
export interface LoadedType {
  readonly file: string;
  readonly document: TypeFile;
}

export type LoadedError = ErrorCodeEntry;

/** A schema folder that passed every check: its documents, methods, notifications and hashes. */
export interface LoadedSchemaFolder {
  /** Absolute path. */
  readonly dir: string;
  /** sha256 hex over the sorted (relative path, canonical JSON) of every file. */
  readonly hash: string;
  /** Relative posix path -> sha256 hex of the file's canonical JSON. */
  readonly fileHashes: ReadonlyMap<string, string>;
  /** Relative posix path -> parsed JSON document (with its assigned $id). */
  readonly files: ReadonlyMap<string, JsonSchema>;
  readonly protocol: ProtocolFile;
  readonly meta: MetaFile;
  readonly capabilities: CapabilitiesFile;
  /** Sorted by path. */
  readonly types: readonly LoadedType[];
  /** Sorted by wire name. */
  readonly methods: readonly LoadedMethod[];
  readonly notifications: readonly LoadedNotification[];
  readonly errors: readonly LoadedError[];
  /** The $id the loader assigned to that file. */
  idOf(relativePath: string): string;
}

/** Base of every assigned `$id`; `.invalid` never resolves, so nothing is ever fetched. */
export const schemaIdBase = "https://rcp-gen.invalid/schema/";
