/**
 * The one model every emitter and plugin reads: a schema folder's methods, notifications,
 * shared types, errors and named shapes, typed, with the `x-rcp` defaults applied (a method
 * that says nothing of `streaming` does not stream; no `gates` is no gates). Built once per run
 * from a loaded folder; the raw documents stay reachable through `schema` for the targets that
 * print JSON Schema (validators, the bundle, OpenRPC).
 */
import type { Clamp, CrossFieldRule, Idempotence, LifecycleRole, OptionGate, Pagination } from "@rcp-gen/runtime";
import { isJsonObject, readPointer } from "../load/json-pointer.js";
import type { LoadedSchemaFolder } from "../load/loaded-folder.js";
import type { ErrorCodeEntry, JsonSchema } from "../load/meta-schema/schema-files.js";
import { camelName, pascalName } from "./naming.js";
import { allShapes, type Shape } from "./shapes.js";

export type { Shape } from "./shapes.js";

/** One method of the schema folder, with what its `x-rcp` block says. */
export interface RcpMethod {
  /** The wire name, e.g. `index/add`. */
  readonly method: string;
  /** Its file in the schema folder, e.g. `methods/index-add.json`. */
  readonly file: string;
  /** `indexAdd`: the client method's name. */
  readonly camelName: string;
  /** `IndexAdd`: how its types start. */
  readonly pascalName: string;
  readonly title?: string;
  readonly description?: string;
  /** The spec section that defines it, e.g. `§7.10`. */
  readonly spec?: string;
  /** The capability key that gates it, or null (lifecycle methods). */
  readonly capability: string | null;
  /** A capability path that must also be truthy, e.g. `index.writable`. */
  readonly requires?: string;
  readonly beforeInitialize: boolean;
  /** Set on the methods the runtime's session answers itself; a user implements the others. */
  readonly lifecycle?: LifecycleRole;
  /** Whether it may report progress (§9); `partial` is the shape of a progress event's `partial`. */
  readonly streaming: boolean;
  /** Whether its cut SSE stream may be resumed (x-rcp `resumable`; docs/resumable-streams.md). */
  readonly resumable: boolean;
  readonly strictParam?: string;
  readonly pagination?: Pagination;
  /** Present when a call may be repeated without harm (§7.10, §12.2); absent for `idempotent: false`. */
  readonly idempotent?: Idempotence;
  /** Whether a call may change the server's state (x-rcp `writes`); read-only when false. */
  readonly writes: boolean;
  /** Whether a write may remove or overwrite what was there (x-rcp `destructive`). */
  readonly destructive: boolean;
  /** Other param names the server accepts -> the canonical name each stands for. */
  readonly aliases: Readonly<Record<string, string>>;
  readonly gates: readonly OptionGate[];
  readonly clamps: readonly Clamp[];
  readonly rules: readonly CrossFieldRule[];
  readonly params: Shape;
  readonly result: Shape;
  readonly partial?: Shape;
}

/** One notification of the schema folder. */
export interface RcpNotification {
  readonly method: string;
  readonly file: string;
  readonly description?: string;
  readonly spec?: string;
  readonly direction: "client" | "server" | "both";
  readonly role?: "progress" | "log" | "cancel";
  readonly params: Shape;
}

/** One error code of the schema's `errors.json`. */
export type RcpErrorCode = ErrorCodeEntry;

/** The typed model of a schema folder that every target and plugin receives. */
export interface RcpModel {
  /** What docs call the protocol: `RCP/1` (protocol.json `x-rcp.name` and `version`; `Protocol/1` without a name). */
  readonly title: string;
  /** The protocol version (protocol.json `x-rcp.version`). */
  readonly version: number;
  /** The prefix every notification's name starts with (§4.5). */
  readonly notificationPrefix: string;
  /** Log levels, least severe first (§17.1). */
  readonly logLevels: readonly string[];
  /** Sorted by wire name. */
  readonly methods: readonly RcpMethod[];
  readonly notifications: readonly RcpNotification[];
  /** The error table (errors.json), in the order written. */
  readonly errors: readonly RcpErrorCode[];
  /** Every named shape (a type and, mostly, a validator each), in the order they are emitted. */
  readonly shapes: readonly Shape[];
  /** The shared types, types/*.json. */
  readonly types: readonly Shape[];
  /** `_meta` (meta.json). */
  readonly meta: Shape;
  readonly capabilities: { readonly server: Shape; readonly client: Shape };
  /** The schema folder as loaded: every document, its hashes and assigned `$id`s. */
  readonly schema: LoadedSchemaFolder;
  /** The shape at `file#pointer`, if that location is one. */
  shapeAt(file: string, pointer: string): Shape | undefined;
  /** The schema at `file#pointer` as written (or undefined). */
  schemaAt(file: string, pointer: string): JsonSchema | boolean | undefined;
}

export function buildModel(folder: LoadedSchemaFolder): RcpModel {
  const shapes = allShapes(folder);
  const byLocation = new Map(shapes.map((shape) => [`${shape.file}#${shape.pointer}`, shape]));
  const shapeAt = (file: string, pointer: string) => byLocation.get(`${file}#${pointer}`);
  const required = (file: string, pointer: string): Shape => {
    const shape = shapeAt(file, pointer);
    if (shape === undefined) throw new Error(`rcp-gen internal error: no shape at ${file}#${pointer}`);
    return shape;
  };
  const methods = folder.methods.map(({ file, method, annotation, document }): RcpMethod => {
    const partial = shapeAt(file, "/$defs/partial");
    return {
      method,
      file,
      camelName: camelName(method),
      pascalName: pascalName(method),
      title: document.title,
      description: document.description,
      spec: annotation.spec,
      capability: annotation.capability,
      requires: annotation.requires,
      beforeInitialize: annotation.beforeInitialize ?? false,
      lifecycle: annotation.lifecycle,
      streaming: annotation.streaming ?? false,
      resumable: annotation.resumable ?? (annotation.streaming === true && annotation.lifecycle === undefined),
      strictParam: annotation.strictParam,
      pagination: annotation.pagination,
      idempotent: annotation.idempotent || undefined,
      writes: annotation.writes ?? false,
      destructive: annotation.destructive ?? false,
      aliases: annotation.aliases ?? {},
      gates: annotation.gates ?? [],
      clamps: annotation.clamps ?? [],
      rules: annotation.rules ?? [],
      params: required(file, "/$defs/params"),
      result: required(file, "/$defs/result"),
      partial: partial,
    };
  });
  const notifications = folder.notifications.map(({ file, method, annotation, document }): RcpNotification => ({
    method,
    file,
    description: document.description,
    spec: annotation.spec,
    direction: annotation.direction,
    role: annotation.role,
    params: required(file, "/$defs/params"),
  }));
  return {
    title: `${folder.protocol["x-rcp"].name ?? "Protocol"}/${folder.protocol["x-rcp"].version}`,
    version: folder.protocol["x-rcp"].version,
    notificationPrefix: folder.protocol["x-rcp"].notificationPrefix,
    logLevels: folder.meta.$defs.logLevel.enum,
    methods,
    notifications,
    errors: folder.errors,
    shapes,
    types: shapes.filter((shape) => shape.file.startsWith("types/")),
    meta: required("meta.json", "/$defs/meta"),
    capabilities: {
      server: required("capabilities.json", "/$defs/serverCapabilities"),
      client: required("capabilities.json", "/$defs/clientCapabilities"),
    },
    schema: folder,
    shapeAt,
    schemaAt: (file, pointer) => schemaAt(folder, file, pointer),
  };
}

/** Methods a user implements and calls; the runtime's session answers lifecycle methods itself. */
export function userMethods(model: RcpModel): RcpMethod[] {
  return model.methods.filter((method) => method.lifecycle === undefined);
}

/** The schema at `file#pointer` as written: an object or a boolean schema, or undefined. */
export function schemaAt(folder: LoadedSchemaFolder, file: string, pointer: string): JsonSchema | boolean | undefined {
  const node = readPointer(folder.files.get(file), pointer);
  return typeof node === "boolean" || isJsonObject(node) ? node : undefined;
}
