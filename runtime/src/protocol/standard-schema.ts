/**
 * Standard Schema v1 (https://standardschema.dev) on generated validators, so that the libraries
 * that take one (Hono's `@hono/standard-validator`, TanStack Form, tRPC, the MCP SDK) take them.
 *
 * The interface is copied from the spec, flattened out of its namespace, as the spec invites
 * implementers to do: the runtime's production install gains no package. InferInput and
 * InferOutput of `@standard-schema/spec` read these types as they read their own
 * (test/runtime/standard-schema.test.ts checks that).
 */
import type { ShapeCheck, Validator } from "./descriptor.js";
import { issueKeys, issueMessage, keysIn, NO_ISSUE_MESSAGE } from "./validation-issue.js";

/** The Standard Schema v1 interface: a `~standard` property. */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly "~standard": StandardSchemaV1Props<Input, Output>;
}

/** What `~standard` holds. */
export interface StandardSchemaV1Props<Input = unknown, Output = Input> {
  /** The spec's version. */
  readonly version: 1;
  /** The library that made the schema: `rcp-gen` for generated validators. */
  readonly vendor: string;
  /** Checks a value: its result, or a promise of it. */
  readonly validate: (
    value: unknown,
    options?: StandardSchemaV1Options,
  ) => StandardSchemaV1Result<Output> | Promise<StandardSchemaV1Result<Output>>;
  /** For type inference only: undefined at run time. */
  readonly types?: { readonly input: Input; readonly output: Output } | undefined;
}

/** What a caller may pass to `validate`; generated validators take no options. */
export interface StandardSchemaV1Options {
  readonly libraryOptions?: Record<string, unknown> | undefined;
}

/** `{ value }` when the value matches, `{ issues }` otherwise. */
export type StandardSchemaV1Result<Output> =
  { readonly value: Output; readonly issues?: undefined } | { readonly issues: readonly StandardSchemaV1Issue[] };

/** One problem: what is wrong, and where (keys from the value's root; array indexes as numbers). */
export interface StandardSchemaV1Issue {
  readonly message: string;
  readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
}

/**
 * A generated validator: a type guard for its shape (what the runtime calls) that is also a
 * Standard Schema whose `validate` answers synchronously, input and output typed as the shape.
 */
export interface StandardValidator<T> extends Validator<T>, StandardSchemaV1<T> {
  readonly "~standard": StandardValidatorProps<T>;
}

/** A generated validator's `~standard`: `validate` never returns a promise. */
export interface StandardValidatorProps<T> extends StandardSchemaV1Props<T> {
  /** Checks a value: `{ value }` or `{ issues }`, at once. */
  readonly validate: (value: unknown, options?: StandardSchemaV1Options) => StandardSchemaV1Result<T>;
}

/**
 * `validate` given a `~standard` property (the function itself, so the runtime's calls cost
 * nothing more). Generated validators.ts calls it once per export.
 */
export function standardValidator<T>(validate: Validator<T>): StandardValidator<T> {
  const standard: StandardValidatorProps<T> = {
    version: 1,
    vendor: "rcp-gen",
    validate: (value) => (validate(value) ? { value, issues: undefined } : { issues: standardIssues(validate, value) }),
  };
  return Object.assign(validate, { "~standard": standard });
}

/** The validator's issues, worded as a -32602's `message` and `field` word them. */
function standardIssues(validator: ShapeCheck, value: unknown): StandardSchemaV1Issue[] {
  const issues = validator.errors ?? [];
  if (issues.length === 0) return [{ message: NO_ISSUE_MESSAGE }];
  // An array's index as a number, as Standard Schema libraries give it.
  return issues.map((issue) => ({ message: issueMessage(issue), path: keysIn(issueKeys(issue), value) }));
}
