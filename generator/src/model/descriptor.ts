/**
 * The data of a folder's ProtocolDescriptor (runtime/protocol.ts): every method's x-rcp
 * annotation, the notifications, the error table, the version, the log levels (least severe
 * first), the `_meta` validator and one validator per shared type role (`registry`), with a
 * validator for each shape supplied by the caller. methods.ts writes it as code with
 * references to precompiled validators; `rcp-gen conform` builds it live with ajv.
 */
import type { LoadedSchemaFolder } from "../load/loader.js";
import { allShapes, metaShape } from "./shapes.js";

/** The validator of the shape at `file#pointer`, or undefined when the folder has none there. */
export type ValidatorAt<V> = (file: string, pointer: string) => V | undefined;

export interface DescriptorData<V> {
  version: number;
  notificationPrefix: string;
  logLevels: string[];
  methods: Record<string, Record<string, unknown>>;
  notifications: Record<string, Record<string, unknown>>;
  errors: Record<string, { code: number; symbol: string; message: string; retryable: string }>;
  meta: V | undefined;
  /** Shared type roles (`registry`) and their validators. */
  [role: string]: unknown;
  description: string | undefined;
}

export function descriptorData<V>(folder: LoadedSchemaFolder, validatorAt: ValidatorAt<V>): DescriptorData<V> {
  const methods: Record<string, Record<string, unknown>> = {};
  for (const { file, method, annotation } of folder.methods) {
    methods[method] = {
      method,
      capability: annotation["capability"] ?? null,
      requires: annotation["requires"],
      beforeInitialize: annotation["beforeInitialize"] ?? false,
      lifecycle: annotation["lifecycle"],
      streaming: annotation["streaming"] ?? false,
      strictParam: annotation["strictParam"],
      pagination: annotation["pagination"],
      // Only the methods safe to repeat carry it; `false` is the default and is left out.
      idempotent: annotation["idempotent"] || undefined,
      aliases: annotation["aliases"] ?? {},
      gates: annotation["gates"] ?? [],
      clamps: annotation["clamps"] ?? [],
      rules: annotation["rules"] ?? [],
      params: validatorAt(file, "/$defs/params"),
      result: validatorAt(file, "/$defs/result"),
      partial: validatorAt(file, "/$defs/partial"),
      spec: annotation["spec"],
    };
  }
  const notifications: Record<string, Record<string, unknown>> = {};
  for (const { file, method, annotation } of folder.notifications)
    notifications[method] = {
      method,
      direction: annotation["direction"],
      params: validatorAt(file, "/$defs/params"),
      role: annotation["role"],
      spec: annotation["spec"],
    };
  const errors: DescriptorData<V>["errors"] = {};
  for (const { code, symbol, message, retryable } of folder.errors)
    errors[String(code)] = { code, symbol, message, retryable };
  const protocolFile = folder.files.get("protocol.json") as { description?: string; "x-rcp": Record<string, unknown> };
  const meta = folder.files.get("meta.json") as { $defs: { logLevel: { enum: string[] } } };
  return {
    version: protocolFile["x-rcp"]["version"] as number,
    notificationPrefix: protocolFile["x-rcp"]["notificationPrefix"] as string,
    logLevels: meta.$defs.logLevel.enum,
    methods,
    notifications,
    errors,
    meta: validatorAt(metaShape.file, metaShape.pointer),
    ...Object.fromEntries(
      allShapes(folder).flatMap((shape) =>
        shape.role === undefined ? [] : [[shape.role, validatorAt(shape.file, shape.pointer)]],
      ),
    ),
    description: protocolFile.description,
  };
}
