/**
 * Three replicas of the demo engine behind a real HAProxy (docs/examples/scale-out/haproxy.cfg,
 * ports filled in) with state on a real redis-server: what scaling out must keep of §5.2
 * (sessions, SSE), §7.14 (cancel) and §15.5 (rate limits), and that a replica dying under
 * load loses no answer and runs no request twice.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { missingBinaries, startHaproxy, startRedis, type Haproxy, type RedisServer } from "./processes.js";

const skip = missingBinaries();
if (skip !== undefined) console.log(skip);

/** Compiled by `tsc -p tsconfig.json`, which `npm test` runs first. */
const REPLICA = fileURLToPath(new URL("../../dist/docs/examples/scale-out/replica.js", import.meta.url));
const HAPROXY_CONFIG = fileURLToPath(new URL("../../docs/examples/scale-out/haproxy.cfg", import.meta.url));
/** Per caller (a session once initialized, else an address), and slow to refill: no token comes back during the run. */
const BURST = 60;

interface Replica {
  readonly url: string;
  readonly child: ChildProcess;
  stderr(): string;
}

let redis: RedisServer;
let proxy: Haproxy;
const replicas: Replica[] = [];

async function startReplica(socket: string): Promise<Replica> {
  const child = spawn(
    process.execPath,
    [
      REPLICA,
      "--port",
      "0",
      "--redis",
      socket,
      "--trusted-proxy",
      "127.0.0.1",
      "--burst",
      String(BURST),
      "--per-second",
      "0.01",
      "--trace",
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (text: string) => {
      stdout += text;
      if (stdout.includes("\n")) resolve(stdout.split("\n", 1)[0]!);
    });
    child.once("exit", (code) => reject(new Error(`replica exited ${code}: ${stderr}`)));
  });
  return { url, child, stderr: () => stderr };
}

beforeAll(async () => {
  if (skip !== undefined) return;
  redis = await startRedis();
  for (let i = 0; i < 3; i++) replicas.push(await startReplica(redis.socket));
  proxy = await startHaproxy(
    HAPROXY_CONFIG,
    replicas.map((replica) => replica.url),
  );
}, 30_000);

afterAll(async () => {
  await proxy?.stop();
  await Promise.all(
    replicas.map(
      (replica) =>
        new Promise<void>((done) => {
          if (replica.child.exitCode !== null || replica.child.signalCode !== null) return done();
          replica.child.once("exit", () => done());
          replica.child.kill("SIGKILL");
        }),
    ),
  );
  await redis?.stop();
});

/** A reply as the tests read it: `result` typed as present, so reading it from an error fails the test. */
type Answer = {
  id: string | number | null;
  result: { _meta: { session: string }; hits?: unknown[] };
  error?: { code: number; message: string };
};

function rpc(id: string | number, method: string, params: object): string {
  return JSON.stringify({ jsonrpc: "2.0", id, method, params });
}

async function call(
  base: string,
  id: string | number,
  method: string,
  params: object,
  headers: Record<string, string> = {},
) {
  const response = await fetch(`${base}/${method}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: rpc(id, method, params),
  });
  const text = await response.text();
  return { status: response.status, retryAfter: response.headers.get("retry-after"), text };
}

async function initialize(caller: string): Promise<string> {
  const reply = await call(
    `${proxy.url}/rcp`,
    `init-${caller}`,
    "initialize",
    { protocolVersion: 1, client: { name: "scale-test", version: "1" } },
    { "x-forwarded-for": caller },
  );
  return (JSON.parse(reply.text) as Answer).result._meta.session;
}

/** An SSE retrieve: each event with the time it was read, and in how many reads they came. */
async function streamRetrieve(base: string, id: string, token: string, delayMs: number, signal?: AbortSignal) {
  const response = await fetch(`${base}/retrieve`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "text/event-stream", "rcp-session": token },
    body: rpc(id, "retrieve", {
      query: "vector search",
      k: 3,
      _meta: { progressToken: id, "x-demo-delayMs": delayMs },
    }),
    signal,
  });
  return { response, reader: response.body!.pipeThrough(new TextDecoderStream()).getReader() };
}

interface Event {
  readonly at: number;
  readonly read: number;
  readonly frame: Answer & { method?: string };
}

async function readEvents(
  reader: ReadableStreamDefaultReader<string>,
  until?: (event: Event) => boolean,
): Promise<Event[]> {
  const events: Event[] = [];
  let buffered = "";
  for (let read = 0; ; read++) {
    const { value, done } = await reader.read();
    if (done) return events;
    buffered += value;
    const blocks = buffered.split("\n\n");
    buffered = blocks.pop()!;
    for (const block of blocks) {
      const data = block
        .split("\n")
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5).trim())
        .join("\n");
      if (data === "") continue;
      const event = { at: performance.now(), read, frame: JSON.parse(data) as Event["frame"] };
      events.push(event);
      if (until?.(event)) return events;
    }
  }
}

function runnerOf(id: string): Replica | undefined {
  return replicas.find((replica) => replica.stderr().includes(`ran ${JSON.stringify(id)}\n`));
}

describe.skipIf(skip !== undefined)("three demo-engine replicas behind HAProxy, state on Redis", () => {
  it("a stateful session initialized through one replica is used through the others (§5.2)", async () => {
    const token = await initialize("198.51.100.1");
    const ids = ["session-1", "session-2", "session-3", "session-4", "session-5", "session-6"];
    for (const id of ids) {
      const reply = await call(`${proxy.url}/rcp`, id, "retrieve", { query: "vector", k: 2 }, { "rcp-session": token });
      expect((JSON.parse(reply.text) as Answer).result?.hits).toBeDefined();
    }
    const served = new Set(ids.map((id) => runnerOf(id)));
    expect(served.has(undefined)).toBe(false);
    expect(served.size).toBe(3);
  });

  it("SSE progress streams through the proxy frame by frame: the first frame long before the result (§5.2, §9)", async () => {
    const token = await initialize("198.51.100.2");
    // Close enough that HAProxy without `option http-no-delay` hands two frames over in one read (it does at 80 ms,
    // not at 150 ms), far enough apart that a client busy for a moment still reads them one by one.
    const delayMs = 80;
    const { reader } = await streamRetrieve(`${proxy.url}/rcp`, "stream-1", token, delayMs);
    const events = await readEvents(reader);
    const progress = events.filter((event) => event.frame.method === "notifications/progress");
    const result = events.at(-1)!;
    expect(result.frame).toMatchObject({ id: "stream-1", result: { hits: expect.any(Array) as unknown } });
    expect(progress.length).toBeGreaterThanOrEqual(2);
    // Each stage waits delayMs before it runs: unbuffered, every frame is its own read, the first well before the result.
    // Half the stages' wait, not all of it: on a loaded machine the first frame can be read late, while a
    // buffered response would hand it over with the result.
    expect(new Set(progress.map((event) => event.read)).size).toBe(progress.length);
    expect(result.at - progress[0]!.at).toBeGreaterThanOrEqual(delayMs * (progress.length - 1) * 0.5);
  });

  it("a notifications/cancel posted to another replica cancels the request: -32006, the handler's signal aborted (§7.14)", async () => {
    const token = await initialize("198.51.100.3");
    const { reader } = await streamRetrieve(`${proxy.url}/rcp`, "cancel-1", token, 1000);
    const first = await readEvents(reader, (event) => event.frame.method === "notifications/progress");
    expect(first).toHaveLength(1);
    const runner = runnerOf("cancel-1")!;
    const other = replicas.find((replica) => replica !== runner)!;
    const cancel = await fetch(`${other.url}/notifications/cancel`, {
      method: "POST",
      headers: { "content-type": "application/json", "rcp-session": token },
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancel", params: { id: "cancel-1" } }),
    });
    expect(cancel.status).toBe(204);
    const rest = await readEvents(reader);
    expect(rest.at(-1)!.frame).toMatchObject({ id: "cancel-1", error: { code: -32006 } });
    expect(runner.stderr()).toContain(`aborted "cancel-1"\n`);
  });

  it("a client that disconnects mid-stream aborts the handler behind the proxy (§5.2)", async () => {
    const token = await initialize("198.51.100.4");
    const leave = new AbortController();
    const { reader } = await streamRetrieve(`${proxy.url}/rcp`, "leave-1", token, 1000, leave.signal);
    await readEvents(reader, (event) => event.frame.method === "notifications/progress");
    leave.abort();
    await expect
      .poll(() => runnerOf("leave-1")?.stderr().includes(`aborted "leave-1"\n`), { timeout: 5000 })
      .toBe(true);
  });

  it("the rate limit holds across replicas: the call past the burst gets 429 / -32011 whichever replica (§15.5)", async () => {
    const caller = { "x-forwarded-for": "198.51.100.5" };
    for (let call_ = 0; call_ < BURST; call_++) {
      expect((await call(`${proxy.url}/rcp`, `limit-${call_}`, "ping", {}, caller)).status).toBe(200);
    }
    for (let extra = 0; extra < 3; extra++) {
      const refused = await call(`${proxy.url}/rcp`, `limit-over-${extra}`, "ping", {}, caller);
      expect(refused.status).toBe(429);
      expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(JSON.parse(refused.text) as Answer).toMatchObject({ id: `limit-over-${extra}`, error: { code: -32011 } });
    }
  });

  it("killing a replica mid-load: unsent requests go elsewhere, in-flight ones get an error, each id answered once and run at most once", async () => {
    const workers = 4;
    const perWorker = 40;
    const killAfter = 40;
    const tokens = await Promise.all(Array.from({ length: workers }, (_, w) => initialize(`198.51.100.${10 + w}`)));
    const victim = replicas[1]!;
    let completed = 0;
    let killedAt = Number.POSITIVE_INFINITY;
    const outcomes: Array<{ id: string; startedAt: number; status: number; answer: Answer | undefined }> = [];
    await Promise.all(
      tokens.map(async (token, w) => {
        for (let n = 0; n < perWorker; n++) {
          const id = `load-${w}-${n}`;
          const startedAt = performance.now();
          // A connection the proxy closed without an answer is an error too (status 0), never a silence.
          const reply = await call(
            `${proxy.url}/rcp`,
            id,
            "retrieve",
            { query: "hybrid", k: 2, _meta: { "x-demo-delayMs": 3 } },
            {
              "rcp-session": token,
            },
          ).catch(() => ({ status: 0, text: "" }));
          const answer = reply.status === 200 ? (JSON.parse(reply.text) as Answer) : undefined;
          outcomes.push({ id, startedAt, status: reply.status, answer });
          if (++completed === killAfter) {
            victim.child.kill("SIGKILL");
            killedAt = performance.now();
          }
        }
      }),
    );
    expect(outcomes).toHaveLength(workers * perWorker);
    // Answered: a JSON-RPC result for its own id, or for one cut off in flight the proxy's 502 or a closed connection.
    for (const outcome of outcomes) {
      if (outcome.status === 200)
        expect(outcome.answer).toMatchObject({ id: outcome.id, result: { hits: expect.any(Array) as unknown } });
      else expect([0, 502]).toContain(outcome.status);
    }
    const failed = outcomes.filter((outcome) => outcome.status !== 200);
    expect(failed.length).toBeLessThanOrEqual(workers);
    // Sent once the replica was gone and HAProxy had seen its connections close (on a loaded
    // machine that takes it a few hundred ms): retried on another one.
    expect(failed.filter((outcome) => outcome.startedAt > killedAt + 300)).toEqual([]);
    // No retry of a request a replica received: every id ran at most once, across all three.
    const runs = replicas.flatMap((replica) => replica.stderr().match(/^ran "load-[^"]+"$/gm) ?? []);
    expect(new Set(runs).size).toBe(runs.length);
    for (const outcome of outcomes) if (outcome.status === 200) expect(runs).toContain(`ran "${outcome.id}"`);
    const afterKill = outcomes.filter((outcome) => outcome.startedAt > killedAt);
    expect(afterKill.length).toBeGreaterThan(0);
  }, 30_000);
});
