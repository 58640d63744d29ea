/**
 * The data of a folder's ProtocolDescriptor (runtime/protocol.ts): every method's x-rcp
 * annotation, the notifications, the error table, the version, the log levels (least severe
 * first), the `_meta` validator and one validator per shared type role (`registry`), with a
 * validator for each shape supplied by the caller. methods.ts writes it as code with
 * references to precompiled validators; `rcp-gen conform` builds it live with ajv.
 */
import type { RcpMethod, RcpModel, Shape } from "./model.js";

export interface DescriptorData<V> {
  version: number;
  notificationPrefix: string;
  logLevels: readonly string[];
  methods: Record<string, Record<string, unknown>>;
  notifications: Record<string, Record<string, unknown>>;
  errors: Record<string, { code: number; symbol: string; message: string; retryable: string }>;
  meta: V | undefined;
  /** Shared type roles (`registry`) and their validators. */
  [role: string]: unknown;
}

/** What the runtime reads of a method's annotation, in the descriptor's order; undefined members are absent. */
export function methodRules(method: RcpMethod): Record<string, unknown> {
  return {
    capability: method.capability,
    requires: method.requires,
    beforeInitialize: method.beforeInitialize,
    lifecycle: method.lifecycle,
    streaming: method.streaming,
    strictParam: method.strictParam,
    pagination: method.pagination,
    // Only the methods safe to repeat carry it.
    idempotent: method.idempotent,
    // Left out when empty: the runtime reads an absent list as none.
    aliases: Object.keys(method.aliases).length > 0 ? method.aliases : undefined,
    gates: method.gates.length > 0 ? method.gates : undefined,
    clamps: method.clamps.length > 0 ? method.clamps : undefined,
    rules: method.rules.length > 0 ? method.rules : undefined,
  };
}

export function descriptorData<V>(model: RcpModel, validatorOf: (shape: Shape) => V | undefined): DescriptorData<V> {
  const methods: Record<string, Record<string, unknown>> = {};
  for (const method of model.methods)
    methods[method.method] = {
      method: method.method,
      ...methodRules(method),
      params: validatorOf(method.params),
      result: validatorOf(method.result),
      partial: method.partial && validatorOf(method.partial),
      spec: method.spec,
    };
  const notifications: Record<string, Record<string, unknown>> = {};
  for (const notification of model.notifications)
    notifications[notification.method] = {
      method: notification.method,
      direction: notification.direction,
      params: validatorOf(notification.params),
      role: notification.role,
      spec: notification.spec,
    };
  const errors: DescriptorData<V>["errors"] = {};
  for (const { code, symbol, message, retryable } of model.errors)
    errors[String(code)] = { code, symbol, message, retryable };
  return {
    version: model.version,
    notificationPrefix: model.notificationPrefix,
    logLevels: model.logLevels,
    methods,
    notifications,
    errors,
    meta: validatorOf(model.meta),
    ...Object.fromEntries(
      model.types.flatMap((shape) => (shape.role === undefined ? [] : [[shape.role, validatorOf(shape)]])),
    ),
  };
}
