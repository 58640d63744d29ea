/**
 * The OpenTelemetry entry (`@rcp-gen/runtime/otel`): tracing interceptors over
 * `@opentelemetry/api`, an optional peer dependency that nothing else in the runtime loads.
 * serverTracing: one SERVER span per intercepted request (method, id, transport, outcome, error
 * code; progress as span events), the child of the trace context the request carries in `_meta`
 * and active while the handler runs. clientTracing: one CLIENT span per call (retries included),
 * whose context it writes into `_meta` (./trace-context.ts). Attributes follow the RPC
 * semantic conventions for JSON-RPC (`rpc.system`, `rpc.method`, `rpc.jsonrpc.*`).
 *
 * @module @rcp-gen/runtime/otel
 */
import {
  context,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Span,
  type TracerProvider,
} from "@opentelemetry/api";
import type { ClientCall, Interceptor, ProgressEvent, RcpCall, ServerCall } from "../protocol/types.js";
import { toErrorObject } from "../protocol/errors.js";
import { TransportError } from "../client/transport.js";
import { remoteParent, withTraceContext } from "./trace-context.js";

/** Options of `serverTracing` and `clientTracing`. */
export interface TracingOptions {
  /** Where spans go. Default: the global provider (`trace.getTracerProvider()`), as registered by the OTel SDK. */
  tracerProvider?: TracerProvider;
}

const TRACER_NAME = "@rcp-gen/runtime";

/** A SERVER span around each handler call, continuing the trace in `_meta.traceparent`. */
export function serverTracing(options: TracingOptions = {}): Interceptor<ServerCall> {
  const tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(TRACER_NAME);
  return (next) => (call) => {
    const remote = remoteParent(call.meta);
    const parent = remote === undefined ? context.active() : trace.setSpanContext(context.active(), remote);
    const span = tracer.startSpan(
      call.method,
      {
        kind: SpanKind.SERVER,
        attributes: {
          ...rpcAttributes(call),
          "rpc.jsonrpc.request_id": String(call.id),
          "rcp.transport": call.ctx.transport.kind,
        },
      },
      parent,
    );
    const ending = spanEnding(span);
    // A cancel or deadline answers before the handler ends: the span ends with that answer.
    const signal = call.ctx.signal;
    signal.addEventListener("abort", () => ending.failed(signal.reason), { once: true });
    return context.with(trace.setSpan(parent, span), () =>
      ending.around(() => next({ ...call, onProgress: observed(span, (event) => call.onProgress(event)) })),
    );
  };
}

/** A CLIENT span around each call, its context sent in `_meta` for the server to continue. */
export function clientTracing(options: TracingOptions = {}): Interceptor<ClientCall> {
  const tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(TRACER_NAME);
  return (next) => (call) => {
    const parent = context.active();
    const span = tracer.startSpan(call.method, { kind: SpanKind.CLIENT, attributes: rpcAttributes(call) }, parent);
    const ending = spanEnding(span);
    const traced: ClientCall = {
      ...call,
      meta: withTraceContext(call.meta, span.spanContext()),
      // eslint-disable-next-line @typescript-eslint/unbound-method -- onProgress is a function the caller gave, always called unbound
      onProgress: call.onProgress && observed(span, call.onProgress),
    };
    return context.with(trace.setSpan(parent, span), () => ending.around(() => next(traced)));
  };
}

function rpcAttributes(call: RcpCall): Attributes {
  return { "rpc.system": "jsonrpc", "rpc.jsonrpc.version": "2.0", "rpc.method": call.method };
}

/** Each progress event becomes a span event on its way through. */
function observed<P>(span: Span, onProgress: (event: ProgressEvent<P>) => void): (event: ProgressEvent<P>) => void {
  return (event) => {
    const attributes: Attributes = { "rcp.progress": event.progress };
    if (event.stage !== undefined) attributes["rcp.stage"] = event.stage;
    span.addEvent("progress", attributes);
    onProgress(event);
  };
}

/** Ends `span` once, with the call's outcome: its result, or the error the wire carries. */
function spanEnding(span: Span) {
  let ended = false;
  const end = (attributes: Attributes): void => {
    if (ended) return;
    ended = true;
    span.setAttributes(attributes);
    span.end();
  };
  const failed = (thrown: unknown): void => {
    if (ended) return;
    // What a JSON-RPC peer sees: the RcpError's code, -32603 for anything else; none for a dead transport.
    const wire = thrown instanceof TransportError ? undefined : toErrorObject(thrown);
    const message = wire?.message ?? (thrown instanceof Error ? thrown.message : String(thrown));
    span.setStatus({ code: SpanStatusCode.ERROR, message });
    end({
      "rcp.outcome": "error",
      ...(wire && { "rpc.jsonrpc.error_code": wire.code, "rpc.jsonrpc.error_message": wire.message }),
    });
  };
  return {
    failed,
    around: (run: () => Promise<unknown>): Promise<unknown> =>
      settled(run).then(
        (result) => {
          end({ "rcp.outcome": "result" });
          return result;
        },
        (thrown: unknown) => {
          failed(thrown);
          throw thrown;
        },
      ),
  };
}

/** The outcome of `run` as a promise, a synchronous throw included. */
function settled(run: () => Promise<unknown>): Promise<unknown> {
  try {
    return Promise.resolve(run());
  } catch (thrown) {
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- passes on what was thrown, unchanged
    return Promise.reject(thrown);
  }
}
