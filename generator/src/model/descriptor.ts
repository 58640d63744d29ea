/**
 * A folder's ProtocolDescriptor (runtime/protocol.ts) as data: every method's x-rcp
 * annotation, the notifications, the error table (RCP/1's and the folder's own codes), the version, the log levels (least severe
 * first), the `_meta` validator and the registry's, with each validator written as the caller
 * gives it. methods.ts writes it as code with references to precompiled validators;
 * `rcp-gen conform` builds it live with ajv.
 */
import type { ErrorDescriptor, MethodDescriptor, ProtocolDescriptor, ShapeCheck } from "@rcp-gen/runtime";
import { rcpErrors } from "@rcp-gen/runtime/codegen-protocol";
import type { RcpMethod, RcpModel, Shape } from "./model.js";

/** `T` with each validator in it written as `V`. */
export type WithValidators<T, V> = T extends ShapeCheck
  ? V
  : T extends object
    ? { readonly [K in keyof T]: WithValidators<T[K], V> }
    : T;

export type DescriptorData<V> = WithValidators<ProtocolDescriptor, V>;

/** What the runtime reads of a method's annotation. */
export type MethodRules = Omit<MethodDescriptor, "method" | "params" | "result" | "partial" | "spec">;

/** A method's annotation as the runtime reads it, in the descriptor's order; undefined members are absent. */
export function methodRules(method: RcpMethod): MethodRules {
  return {
    capability: method.capability,
    requires: method.requires,
    beforeInitialize: method.beforeInitialize,
    lifecycle: method.lifecycle,
    streaming: method.streaming,
    // Only the methods whose streams may be resumed carry it.
    resumable: method.resumable || undefined,
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

/**
 * The error codes the folder's errors.json defines beyond RCP/1's table (the runtime's
 * `rcpErrors`, which the loader checked the codes both define against), by code.
 */
export function addedErrors(model: RcpModel): Readonly<Record<string, ErrorDescriptor>> {
  const standard: Readonly<Record<string, ErrorDescriptor | undefined>> = rcpErrors;
  return Object.fromEntries(
    model.errors
      .filter(({ code }) => standard[String(code)] === undefined)
      .map(({ code, symbol, message, retryable }) => [String(code), { code, symbol, message, retryable }]),
  );
}

export function descriptorData<V>(model: RcpModel, validatorOf: (shape: Shape) => V): DescriptorData<V> {
  const methods: Record<string, WithValidators<MethodDescriptor, V>> = {};
  for (const method of model.methods)
    methods[method.method] = {
      method: method.method,
      ...methodRules(method),
      params: validatorOf(method.params),
      result: validatorOf(method.result),
      partial: method.partial && validatorOf(method.partial),
      spec: method.spec,
    };
  const notifications: DescriptorData<V>["notifications"] = Object.fromEntries(
    model.notifications.map((notification) => [
      notification.method,
      {
        method: notification.method,
        direction: notification.direction,
        params: validatorOf(notification.params),
        role: notification.role,
        spec: notification.spec,
      },
    ]),
  );
  const errors: DescriptorData<V>["errors"] = { ...rcpErrors, ...addedErrors(model) };
  const registry = model.types.find((shape) => shape.role === "registry");
  return {
    version: model.version,
    notificationPrefix: model.notificationPrefix,
    logLevels: model.logLevels,
    methods,
    notifications,
    errors,
    meta: validatorOf(model.meta),
    ...(registry === undefined ? {} : { registry: validatorOf(registry) }),
  };
}
