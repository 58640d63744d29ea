/**
 * Frame types derived from a protocol descriptor: generated validators are type guards
 * (`Validator<RetrieveParams>`), so the descriptor's own type says what every method's
 * params and result look like. With the generic `ProtocolDescriptor` they stay open.
 */
import type { JsonObject, RequestId } from "../protocol/types.js";
import type { ProtocolDescriptor, Validator } from "../protocol/descriptor.js";

type Guarded<V> = V extends Validator<infer T> ? T : unknown;

/** The wire names of a protocol's methods. */
export type MethodName<P extends ProtocolDescriptor> = keyof P["methods"] & string;
/** The wire names of a protocol's notifications. */
export type NotificationName<P extends ProtocolDescriptor> = keyof P["notifications"] & string;
/** The params type of a method, from its generated validator. */
export type ParamsOf<P extends ProtocolDescriptor, K extends MethodName<P>> = Guarded<P["methods"][K]["params"]>;
/** The result type of a method, from its generated validator. */
export type ResultOf<P extends ProtocolDescriptor, K extends MethodName<P>> = Guarded<P["methods"][K]["result"]>;

/** A JSON-RPC request frame. */
export interface RcpRequest<Method extends string = string, Params = JsonObject> {
  jsonrpc: "2.0";
  id: RequestId;
  method: Method;
  params?: Params;
}

/** A JSON-RPC notification frame (no id). */
export interface RcpNotification<Method extends string = string, Params = JsonObject> {
  jsonrpc: "2.0";
  method: Method;
  params?: Params;
}

/** A successful response frame. */
export interface RcpResultResponse<Result = JsonObject> {
  jsonrpc: "2.0";
  id: RequestId;
  result: Result;
}

/** An error response frame. */
export interface RcpErrorResponse {
  jsonrpc: "2.0";
  /** null only when the request could not be read (§4.3, §11). */
  id: RequestId | null;
  error: { code: number; message: string; data?: unknown };
}

/** A request frame of one method, its params typed. */
export type RequestOf<P extends ProtocolDescriptor, K extends MethodName<P>> = RcpRequest<K, ParamsOf<P, K>>;
/** A response frame of one method, its result typed. */
export type ResultResponseOf<P extends ProtocolDescriptor, K extends MethodName<P>> = RcpResultResponse<ResultOf<P, K>>;
/** A notification frame of one notification, its params typed. */
export type NotificationOf<P extends ProtocolDescriptor, K extends NotificationName<P>> = RcpNotification<
  K,
  Guarded<P["notifications"][K]["params"]>
>;

/** Any request of the protocol, discriminated by `method`. */
export type TypedRequest<P extends ProtocolDescriptor> = { [K in MethodName<P>]: RequestOf<P, K> }[MethodName<P>];
/** Any notification of the protocol, discriminated by `method`. */
export type TypedNotification<P extends ProtocolDescriptor> = {
  [K in NotificationName<P>]: NotificationOf<P, K>;
}[NotificationName<P>];
/** A response: its result is typed by the method it answers once that is known (`isResult`). */
export type TypedResponse = RcpResultResponse | RcpErrorResponse;
/** Any frame of a protocol, typed by its method. */
export type TypedMessage<P extends ProtocolDescriptor> = TypedRequest<P> | TypedNotification<P> | TypedResponse;
/** A single frame or a batch (§11). */
export type TypedFrame<P extends ProtocolDescriptor> = TypedMessage<P> | TypedMessage<P>[];

/** What a frame is, as `validateFrame` reports it. */
export type FrameKind = "request" | "notification" | "result" | "error" | "batch";
