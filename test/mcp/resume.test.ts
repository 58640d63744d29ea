/**
 * Resumable 2025 sessions of the HTTP bridge (docs/mcp.md, "Resuming a cut stream"): the MCP
 * SDK v2 client calls a streaming tool over Streamable HTTP, its stream is cut after two
 * progress notifications, and the client resumes with Last-Event-ID, on its own or with the
 * `resumptionToken` of a fresh client in the same session. It gets the rest of the progress
 * once, in order, and the one result, while the engine's handler runs once. A resume naming
 * another session's event gets nothing. Each with the default in-memory store and with
 * `redisEventStore` on a real redis-server; after `ttlMs` neither store holds anything. Past
 * `maxStreamsPerSession` or `maxStreams` a stream is not kept. And `rcp-gen mcp --listen
 * --resumable` turns it on.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport, type FetchLike } from "@modelcontextprotocol/client";
import type { Redis } from "ioredis";
import { MemoryEventStore, type EventStore } from "@rcp-gen/runtime";
import { listenMcp, McpBridge, type McpListening } from "@rcp-gen/runtime/mcp";
import { redisEventStore, type RedisEventStore } from "@rcp-gen/runtime/redis";
import { connectMemory, createServer, type RcpClient } from "../../generated/index.js";
import { mcpTools } from "../../generated/mcp.js";
import { missingBinaries, type RedisServer } from "../scale/processes.js";
import { startSharedRedis } from "../resume/replicas.js";
import { startHttpBridge, type HttpBridge } from "./bridge-process.js";
import { recordInbound, type WireMessage } from "./mcp-clients.js";

const STEPS = 6;
const TTL_MS = 1500;
const CALL = { name: "retrieve", arguments: { query: "compost", k: 3 } };
const RESULT = { hits: [{ id: "doc-1", score: 1, text: "Compost needs air." }] };

const skipRedis = missingBinaries("the bridge's resumable sessions on Redis");
if (skipRedis !== undefined) console.log(skipRedis);

/** An engine whose retrieve streams STEPS progress frames 40 ms apart, counting its runs. */
function slowEngine(): { server: ReturnType<typeof createServer>; runs: () => number } {
  let runs = 0;
  const server = createServer({
    info: { name: "slow-engine", version: "1.0.0" },
    capabilities: { retrieve: { maxK: 10, modes: ["dense"] }, streaming: {} },
    conformance: "L0",
    handlers: {
      async *retrieve(_params, ctx) {
        runs++;
        for (let step = 1; step <= STEPS; step++) {
          await new Promise((resolve) => setTimeout(resolve, 40));
          if (ctx.signal.aborted) throw ctx.signal.reason;
          yield { progress: step / STEPS, stage: "recall" };
        }
        return RESULT;
      },
    },
  });
  return { server, runs: () => runs };
}

/** What a client's fetch sent (`<method> <Last-Event-ID or -> <status>`), and when it cut a stream. */
interface CuttingFetch {
  readonly fetch: FetchLike;
  readonly requests: string[];
  /** Resolves once the first tools/call stream has been cut. */
  readonly cut: Promise<void>;
}

/**
 * A fetch that drops the connection of the first tools/call stream right after its second
 * progress notification, as a network change does: the server sees its response stream close,
 * the client sees its read fail.
 */
function cuttingFetch(): CuttingFetch {
  const requests: string[] = [];
  let cutDone!: () => void;
  const cut = new Promise<void>((resolve) => (cutDone = resolve));
  let cutting = true;
  const cuttingAt = (text: string): number | undefined => {
    let count = 0;
    for (let end = text.indexOf("\n\n"); end !== -1; end = text.indexOf("\n\n", end + 2)) {
      const event = text.slice(text.lastIndexOf("\n\n", end - 1) + 1, end);
      if (event.includes('"notifications/progress"') && ++count === 2) return end + 2;
    }
    return undefined;
  };
  const fetchCutting: FetchLike = async (url, init) => {
    const response = await fetch(url, init);
    const lastEventId = new Headers(init?.headers).get("last-event-id");
    requests.push(`${init?.method ?? "GET"} ${lastEventId ?? "-"} ${response.status}`);
    const isCall = init?.method === "POST" && typeof init.body === "string" && init.body.includes('"tools/call"');
    if (!cutting || !isCall || response.body === null) return response;
    cutting = false;
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    const encoder = new TextEncoder();
    let text = "";
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { value, done } = await reader.read();
        if (done) return controller.close();
        text += decoder.decode(value, { stream: true });
        const end = cuttingAt(text);
        controller.enqueue(encoder.encode(text.slice(sent, end)));
        sent = text.length;
        if (end === undefined) return;
        await reader.cancel();
        controller.error(new TypeError("terminated"));
        cutDone();
      },
      cancel: (reason) => reader.cancel(reason),
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  return { fetch: fetchCutting, requests, cut };
}

const progressOf = (wire: readonly WireMessage[]) =>
  wire.filter((message) => message.method === "notifications/progress").map((message) => message.params!.progress);
const responsesOf = (wire: readonly WireMessage[]) => wire.filter((message) => "result" in message);
const allProgress = Array.from({ length: STEPS }, (_, index) => (index + 1) / STEPS);

interface OpenedStore {
  readonly store: EventStore;
  /** Streams (memory) or keys (Redis) held. */
  held(): Promise<number>;
  close(): Promise<void>;
}

interface StoreCase {
  name: string;
  skip?: string;
  open: () => Promise<OpenedStore>;
}

const stores: StoreCase[] = [
  {
    name: "the default in-memory store",
    open: () => {
      const store = new MemoryEventStore();
      return Promise.resolve({ store, held: () => Promise.resolve(store.size), close: () => Promise.resolve() });
    },
  },
  {
    name: "redisEventStore",
    ...(skipRedis === undefined ? {} : { skip: skipRedis }),
    open: async () => {
      const { redis, client }: { redis: RedisServer; client: Redis } = await startSharedRedis();
      const prefix = `mcp-resume:${process.pid}:`;
      const store: RedisEventStore = redisEventStore({ client, prefix });
      return {
        store,
        held: async () => (await client.keys(`${prefix}*`)).length,
        async close() {
          await store.close();
          client.disconnect();
          await redis.stop();
        },
      };
    },
  },
];

describe.each(stores)("the bridge's resumable sessions with $name", ({ skip, open }) => {
  let engine: RcpClient;
  let runs: () => number;
  let listening: McpListening;
  let opened: OpenedStore;
  const clients: Client[] = [];
  beforeAll(async () => {
    if (skip !== undefined) return;
    opened = await open();
    const slow = slowEngine();
    runs = slow.runs;
    engine = await connectMemory(slow.server);
    const bridge = new McpBridge({ engine, tools: mcpTools });
    listening = await listenMcp(bridge, { resumable: { store: opened.store, retryMs: 20, ttlMs: TTL_MS } });
  });
  afterAll(async () => {
    for (const client of clients) await client.close();
    await listening?.close();
    await engine?.close();
    await opened?.close();
  });

  async function connect(
    fetchLike: FetchLike,
    options: { sessionId?: string; maxRetries?: number } = {},
  ): Promise<{ client: Client; transport: StreamableHTTPClientTransport; wire: WireMessage[] }> {
    const transport = new StreamableHTTPClientTransport(new URL(listening.url), {
      fetch: fetchLike,
      reconnectionOptions: {
        initialReconnectionDelay: 20,
        maxReconnectionDelay: 200,
        reconnectionDelayGrowFactor: 2,
        maxRetries: options.maxRetries ?? 3,
      },
      ...(options.sessionId === undefined ? {} : { sessionId: options.sessionId, protocolVersion: "2025-11-25" }),
    });
    const client = new Client({ name: "rcp-gen-tests", version: "0.0.0" });
    clients.push(client);
    await client.connect(transport);
    return { client, transport, wire: recordInbound(transport) };
  }

  it.skipIf(skip !== undefined)(
    "a client whose stream is cut reconnects with Last-Event-ID and gets the rest of the progress once, and the result",
    async () => {
      const cutting = cuttingFetch();
      const { client, wire } = await connect(cutting.fetch);
      const before = runs();
      const result = await client.callTool(CALL, { onprogress: () => {}, timeout: 5000 });
      await cutting.cut;
      expect(result.structuredContent).toEqual(RESULT);
      expect(progressOf(wire)).toEqual(allProgress);
      expect(responsesOf(wire)).toHaveLength(1);
      // One reconnect, naming the last event read, even if the server has not yet seen the cut.
      expect(cutting.requests.filter((request) => request.startsWith("GET ") && request !== "GET - 200")).toEqual([
        expect.stringMatching(/^GET [0-9a-f-]{36}:2 200$/),
      ]);
      expect(runs() - before).toBe(1);
    },
  );

  it.skipIf(skip !== undefined)(
    "a new client in the same session resumes the call with resumptionToken; another session's resume gets nothing",
    async () => {
      const cutting = cuttingFetch();
      const first = await connect(cutting.fetch, { maxRetries: 0 });
      const tokens: string[] = [];
      const before = runs();
      const abandoned = first.client
        .callTool(CALL, { onprogress: () => {}, onresumptiontoken: (token) => void tokens.push(token) })
        .catch((error: unknown) => error);
      await cutting.cut;
      const sessionId = first.transport.sessionId!;
      await first.client.close();
      expect(await abandoned).toBeInstanceOf(Error);
      const token = tokens.at(-1)!;
      expect(progressOf(first.wire)).toEqual(allProgress.slice(0, 2));

      // Another session, on the same store: the event id names nothing there, and no frame leaks.
      const other = await connect(fetch);
      const foreign = await fetch(listening.url, {
        headers: {
          accept: "text/event-stream",
          "mcp-session-id": other.transport.sessionId!,
          "mcp-protocol-version": "2025-11-25",
          "last-event-id": token,
        },
      });
      expect(foreign.status).toBe(400);
      expect(await foreign.json()).toMatchObject({ error: { code: -32000, data: { field: "Last-Event-ID" } } });

      const second = await connect(fetch, { sessionId });
      const result = await second.client.callTool(CALL, { resumptionToken: token, timeout: 5000 });
      expect(result.structuredContent).toEqual(RESULT);
      expect(progressOf(second.wire)).toEqual(allProgress.slice(2));
      expect(responsesOf(second.wire)).toHaveLength(1);
      expect(runs() - before).toBe(1);
    },
  );

  it.skipIf(skip !== undefined)("keeps nothing once the streams' time to live has passed", async () => {
    const until = Date.now() + TTL_MS * 4;
    while ((await opened.held()) > 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await opened.held()).toBe(0);
  });
});

describe("the bounds of the bridge's resumable sessions", () => {
  let engine: RcpClient;
  let listening: McpListening;
  const clients: Client[] = [];
  beforeAll(async () => {
    engine = await connectMemory(slowEngine().server);
    const bridge = new McpBridge({ engine, tools: mcpTools });
    listening = await listenMcp(bridge, { resumable: { maxStreamsPerSession: 3, maxStreams: 5 } });
  });
  afterAll(async () => {
    for (const client of clients) await client.close();
    await listening?.close();
    await engine?.close();
  });

  /** A session (its initialize is its first stream) and the last event id of each call it makes. */
  async function session(): Promise<{ id: string; call(): Promise<string> }> {
    const transport = new StreamableHTTPClientTransport(new URL(listening.url));
    const client = new Client({ name: "rcp-gen-tests", version: "0.0.0" });
    clients.push(client);
    await client.connect(transport);
    return {
      id: transport.sessionId!,
      async call() {
        let last = "";
        await client.callTool(CALL, { onresumptiontoken: (token) => void (last = token) });
        return last;
      },
    };
  }

  /** The status a reconnect naming `lastEventId` gets in the session. */
  async function resumeStatus(sessionId: string, lastEventId: string): Promise<number> {
    const response = await fetch(listening.url, {
      headers: {
        accept: "text/event-stream",
        "mcp-session-id": sessionId,
        "mcp-protocol-version": "2025-11-25",
        "last-event-id": lastEventId,
      },
    });
    await response.text();
    return response.status;
  }

  it("past maxStreamsPerSession a session's calls are not kept, and past maxStreams no session's are", async () => {
    const a = await session();
    const aKept = [await a.call(), await a.call()];
    const aOver = await a.call();
    expect(await Promise.all(aKept.map((token) => resumeStatus(a.id, token)))).toEqual([200, 200]);
    expect(await resumeStatus(a.id, aOver)).toBe(400);
    // A holds 3 streams; B's initialize and first call make 5, the endpoint's bound.
    const b = await session();
    const bKept = await b.call();
    const bOver = await b.call();
    expect(await resumeStatus(b.id, bKept)).toBe(200);
    expect(await resumeStatus(b.id, bOver)).toBe(400);
  });
});

describe("rcp-gen mcp --listen 0 --resumable", () => {
  let bridge: HttpBridge;
  beforeAll(async () => {
    bridge = await startHttpBridge("--resumable");
  }, 90_000);
  afterAll(() => bridge?.close());

  it("primes each stream of a 2025 session with an event id and the retry hint", async () => {
    const response = await fetch(bridge.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "0" } },
      }),
    });
    expect(await response.text()).toMatch(
      /^id: [0-9a-f-]{36}:0\nretry: 1000\ndata: \n\nevent: message\nid: [0-9a-f-]{36}:1\n/,
    );
  });
});
