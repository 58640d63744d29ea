/**
 * OpenTelemetry through `@rcp-gen/runtime/otel`, recorded by the SDK's in-memory exporter: one
 * client call gives a CLIENT span and a SERVER span in one trace, the server's the child of the
 * client's through `_meta.traceparent` (over a real HTTP socket, and in memory, where frames
 * cross as JSON text as on stdio), active while the handler runs; outcomes and error codes,
 * progress events; a request without trace context starts its own trace.
 */
import { context, SpanKind, trace, type SpanContext } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { connectHttp, connectMemory, type RcpClient } from "../../generated/client.js";
import { createServer } from "../../generated/server.js";
import { ErrorCode, RcpError } from "../../runtime/src/protocol/errors.js";
import { listen, type Listening } from "../../runtime/src/node/index.js";
import { clientTracing, serverTracing } from "../../runtime/src/otel/index.js";

const exporter = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const contextManager = new AsyncLocalStorageContextManager();

const server = createServer({
  info: { name: "otel-test", version: "1.0.0" },
  conformance: "L0",
  capabilities: { retrieve: { maxK: 10 }, streaming: {} },
  interceptors: [serverTracing({ tracerProvider })],
  handlers: {
    async *retrieve(params, ctx) {
      if (params.query === "fail")
        throw new RcpError(ErrorCode.BackendUnavailable, "Backend unavailable: index offline");
      if (params.query === "slow") await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve));
      yield { progress: 0.5, stage: "recall" };
      // The handler's own span: a child of the server span, which is active while it runs.
      tracerProvider.getTracer("engine").startActiveSpan("recall", (span) => span.end());
      return { hits: [{ id: "d1", score: 1 }] };
    },
  },
});

let listening: Listening;
let client: RcpClient;
beforeAll(async () => {
  context.setGlobalContextManager(contextManager.enable());
  listening = await listen(server);
  client = await connectHttp({
    clientInfo: { name: "otel-test", version: "1.0.0" },
    transport: { url: listening.url },
    interceptors: [clientTracing({ tracerProvider })],
  });
});
afterAll(async () => {
  await client.close();
  await server.close();
  context.disable();
});
beforeEach(() => exporter.reset());

const spans = (name: string) => exporter.getFinishedSpans().filter((span) => span.name === name);
const only = (name: string, kind: SpanKind): ReadableSpan => {
  const found = spans(name).filter((span) => span.kind === kind);
  expect(found).toHaveLength(1);
  return found[0]!;
};
const CLIENT = SpanKind.CLIENT;
const SERVER = SpanKind.SERVER;
const parentOf = (span: ReadableSpan): SpanContext | undefined => span.parentSpanContext;

describe.each(["http", "memory"])("over %s", (transport) => {
  it("one call: a client span and a server span in one trace, the handler's spans below the server's", async () => {
    const caller =
      transport === "http"
        ? client
        : await connectMemory(server, { interceptors: [clientTracing({ tracerProvider })] });
    await caller.retrieve({ query: "compost", k: 1 }, { onProgress: () => {} });
    const clientSpan = only("retrieve", CLIENT);
    const serverSpan = only("retrieve", SERVER);
    const handlerSpan = only("recall", 0);
    expect(serverSpan.spanContext().traceId).toBe(clientSpan.spanContext().traceId);
    expect(parentOf(serverSpan)).toMatchObject({ spanId: clientSpan.spanContext().spanId, isRemote: true });
    expect(parentOf(handlerSpan)?.spanId).toBe(serverSpan.spanContext().spanId);
    expect(serverSpan.attributes).toMatchObject({
      "rpc.system": "jsonrpc",
      "rpc.method": "retrieve",
      "rpc.jsonrpc.request_id": expect.any(String) as unknown,
      "rcp.transport": transport,
      "rcp.outcome": "result",
    });
    expect(clientSpan.attributes).toMatchObject({ "rpc.method": "retrieve", "rcp.outcome": "result" });
    for (const span of [clientSpan, serverSpan])
      expect(span.events.map((event) => [event.name, event.attributes])).toEqual([
        ["progress", { "rcp.progress": 0.5, "rcp.stage": "recall" }],
      ]);
    if (caller !== client) await caller.close();
  });
});

it("an error: both spans say ERROR with the code the client received", async () => {
  await expect(client.retrieve({ query: "fail", k: 1 })).rejects.toMatchObject({ code: -32010 });
  for (const span of [only("retrieve", CLIENT), only("retrieve", SERVER)]) {
    expect(span.status).toMatchObject({ code: 2, message: "Backend unavailable: index offline" });
    expect(span.attributes).toMatchObject({ "rcp.outcome": "error", "rpc.jsonrpc.error_code": -32010 });
  }
});

it("a deadline: the server span ends with -32014 when the answer leaves, not when the handler does", async () => {
  await expect(client.retrieve({ query: "slow", k: 1, _meta: { deadlineMs: 30 } })).rejects.toMatchObject({
    code: -32014,
  });
  expect(only("retrieve", SERVER).attributes).toMatchObject({ "rpc.jsonrpc.error_code": -32014 });
});

it("the trace context travels in _meta as W3C traceparent, with traceId for logs (§17.2)", async () => {
  const sent: Record<string, unknown>[] = [];
  const recording = await connectMemory(server, {
    interceptors: [
      clientTracing({ tracerProvider }),
      (next) => (call) => {
        sent.push({ ...call.meta });
        return next(call);
      },
    ],
  });
  await recording.retrieve({ query: "q", k: 1 });
  const { traceId, spanId } = only("retrieve", CLIENT).spanContext();
  expect(sent.at(-1)).toEqual({ traceparent: `00-${traceId}-${spanId}-01`, traceId });
  await recording.close();
});

it("a request without trace context, or with a malformed one, starts a trace of its own", async () => {
  for (const meta of [
    {},
    { traceparent: "00-nonsense" },
    { traceparent: `00-${"0".repeat(32)}-${"1".repeat(16)}-01` },
  ]) {
    exporter.reset();
    const response = await fetch(`${listening.url}/retrieve`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "retrieve", params: { query: "q", k: 1, _meta: meta } }),
    });
    expect(((await response.json()) as { result: { hits: unknown[] } }).result.hits).toHaveLength(1);
    const serverSpan = only("retrieve", SERVER);
    expect(parentOf(serverSpan)).toBeUndefined();
    expect(trace.isSpanContextValid(serverSpan.spanContext())).toBe(true);
  }
});
