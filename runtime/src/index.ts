/**
 * The public runtime entry (`@rcp-gen/runtime`): server, client, errors, fusion, the codec and
 * the filter validator and builder. Nothing here needs Node; stdio and node:http are in `./node/index.ts`.
 *
 * @module @rcp-gen/runtime
 */
export * from "./protocol/types.js";
export * from "./protocol/descriptor.js";
export type {
  StandardSchemaV1,
  StandardSchemaV1Issue,
  StandardSchemaV1Options,
  StandardSchemaV1Props,
  StandardSchemaV1Result,
  StandardValidator,
  StandardValidatorProps,
} from "./protocol/standard-schema.js";
export {
  ErrorCode,
  RcpError,
  invalidParams,
  rcpErrors,
  toErrorObject,
  type ErrorData,
  type ErrorObject,
  type ErrorSymbol,
} from "./protocol/errors.js";
export { createServerRuntime, type RcpServer } from "./server/create-server-runtime.js";
export { DEFAULT_LIMITS, type AnyHandler, type ServerRuntimeOptions } from "./server/core.js";
export type { HttpOptions, HttpRequestInfo, CorsOptions, OriginRule } from "./http/options.js";
export type { ResumableOptions } from "./resume/wire.js";
export { MemoryEventStore, type EventStore, type EventStoreLimits, type StoredEvent } from "./resume/event-store.js";
export { RESUMABLE_CAPABILITY, RESUMABLE_HEADER, type ResumableCapability } from "./resume/wire.js";
export type {
  BucketTake,
  CancelRelay,
  RateLimit,
  RateLimiter,
  ServerState,
  SessionRecord,
  SessionStore,
  TouchedAndTaken,
} from "./state/types.js";
export { MemoryCancelRelay, MemoryRateLimiter, MemorySessionStore } from "./state/memory.js";
export { validateFilter, FILTER_OPERATORS, type AdvertisedFilter, type FieldType } from "./filter/validate.js";
export {
  filter,
  filterBuilder,
  type ContainableField,
  type FieldValue,
  type FilterBuilder,
  type FilterFields,
  type FilterLeaf,
  type FilterNode,
  type FilterScalar,
  type OrderedField,
} from "./filter/build.js";
export { checkFilter } from "./filter/check.js";
export { sseFrame } from "./framing/sse.js";
export { serialize } from "./protocol/serialize.js";
export { fallbackNote } from "./server/params.js";
export * from "./client/index.js";
export * from "./fusion/index.js";
export { encodeF32Base64, decodeF32Base64 } from "./codec/f32-base64.js";
