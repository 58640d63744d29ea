/**
 * Resumable SSE streams on the server (docs/resumable-streams.md), an extension negotiated as
 * §6.2 says: without the opt-in the stream is exactly RCP/1's (§5.2, §9) and a cut aborts the
 * handler (§13.1); with it, frames carry ids, a cut leaves the handler running for the grace
 * period, and the caller who started the stream, and only that caller, resumes it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  eventually,
  frames,
  type Frame,
  lastId,
  parseSse,
  postStream,
  resume,
  rpc,
  startServer,
  wait,
  type TestServer,
} from "./peers.js";

const OPT_IN = { "x-rcp-resumable": "1" };
const auth = (subject: string) => ({ authorization: subject });
const RESUMABLE = {
  graceMs: 300,
  retryMs: 50,
  ttlMs: 1000,
  maxFrames: 50,
  maxStreamsPerCaller: 5,
};

let plain: TestServer;
let server: TestServer;
beforeAll(async () => {
  plain = await startServer({});
  server = await startServer({
    resumable: RESUMABLE,
    authenticate: (request) =>
      request.headers.authorization === undefined ? true : { subject: String(request.headers.authorization) },
  });
});
afterAll(async () => {
  await plain.close();
  await server.close();
});

const finalOf = (text: string) => frames(parseSse(text)).filter((frame) => frame.id !== undefined);
const steps = (text: string) =>
  frames(parseSse(text)).flatMap((frame) => (frame.params?.partial ? [frame.params.partial.step] : []));

describe("negotiation (§6.2)", () => {
  it("the capability is advertised only by a server that offers resumption", async () => {
    const capabilities = async (url: string) =>
      (
        (await (
          await fetch(`${url}/initialize`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: rpc(1, "initialize", { protocolVersion: 1, capabilities: {} }),
          })
        ).json()) as { result: { capabilities: Record<string, unknown> } }
      ).result.capabilities;
    expect((await capabilities(server.url))["x-rcp-resumable"]).toEqual({ retryMs: 50, graceMs: 300 });
    expect((await capabilities(plain.url))["x-rcp-resumable"]).toBeUndefined();
  });

  it("without the opt-in the stream is byte for byte what a server without resumption sends (§5.2)", async () => {
    const params = { steps: 4 };
    const offered = await postStream(server.url, "same", params);
    const without = await postStream(plain.url, "same", params);
    expect(offered.text).toBe(without.text);
    expect(offered.text).not.toContain("id:");
    expect(offered.text).not.toContain("retry:");
  });

  it("without the opt-in a cut aborts the handler at once, as before (§13.1)", async () => {
    await postStream(server.url, "cut-plain", { steps: 100, ms: 20 }, { until: (text) => text.includes("progress") });
    expect(await eventually(() => server.log.aborts.has("cut-plain"))).toBe(true);
  });
});

describe("an opted-in stream", () => {
  it("opens with a priming event and a retry hint, and numbers every frame", async () => {
    const { text } = await postStream(server.url, "numbered", { steps: 3 }, { headers: OPT_IN });
    const events = parseSse(text);
    expect(events[0]).toEqual({ retry: "50" });
    expect(events[1]!.data).toBe("");
    const stream = events[1]!.id!.split(":")[0];
    expect(events[1]!.id).toBe(`${stream}:0`);
    expect(events.slice(2).map((event) => event.id)).toEqual([1, 2, 3, 4].map((seq) => `${stream}:${seq}`));
    expect(steps(text)).toEqual([1, 2, 3]);
    expect(finalOf(text)).toEqual([{ jsonrpc: "2.0", id: "numbered", result: { steps: 3 } }]);
    // A resume from the priming event replays every frame, and is not primed again.
    const replay = parseSse((await resume(server.url, `${stream}:0`)).text);
    expect(replay.map((event) => event.id ?? `retry ${event.retry}`)).toEqual([
      "retry 50",
      ...[1, 2, 3, 4].map((seq) => `${stream}:${seq}`),
    ]);
  });

  it("a cut leaves the handler running; a reconnect with Last-Event-ID gets the missed frames in order, then the live tail and the response, once", async () => {
    const first = await postStream(
      server.url,
      "resumed",
      { steps: 8, ms: 30 },
      { headers: OPT_IN, until: (text) => text.includes('"step":2') },
    );
    await wait(100);
    expect(server.log.aborts.has("resumed")).toBe(false);
    const rest = await resume(server.url, lastId(first.text));
    expect([...steps(first.text), ...steps(rest.text)]).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(finalOf(first.text + rest.text)).toEqual([{ jsonrpc: "2.0", id: "resumed", result: { steps: 8 } }]);
    expect(server.log.runs.get("resumed")).toBe(1);
    expect(server.log.aborts.has("resumed")).toBe(false);
  });

  it("a reconnect after the response was produced replays it", async () => {
    const first = await postStream(
      server.url,
      "late",
      { steps: 3, ms: 20 },
      { headers: OPT_IN, until: (text) => text.includes('"step":1') },
    );
    await wait(150);
    const rest = await resume(server.url, lastId(first.text));
    expect(steps(rest.text)).toEqual([2, 3]);
    expect(finalOf(rest.text)).toEqual([{ jsonrpc: "2.0", id: "late", result: { steps: 3 } }]);
  });

  it("without a reconnect the handler is aborted when the grace period ends, and a late reconnect gets -32006", async () => {
    const first = await postStream(
      server.url,
      "graceless",
      { steps: 100, ms: 20 },
      { headers: OPT_IN, until: (text) => text.includes("progress") },
    );
    await wait(150);
    expect(server.log.aborts.has("graceless")).toBe(false);
    expect(await eventually(() => server.log.aborts.has("graceless"))).toBe(true);
    const late = await resume(server.url, lastId(first.text));
    expect(finalOf(late.text)[0]!.error!.code).toBe(-32006);
  });

  it("DELETE naming the stream cancels its handler at once; the stream's final frame is -32006", async () => {
    const first = await postStream(
      server.url,
      "deleted",
      { steps: 100, ms: 20 },
      { headers: OPT_IN, until: (text) => text.includes("progress") },
    );
    const cancelled = await resume(server.url, lastId(first.text), { method: "DELETE" });
    expect(cancelled.status).toBe(204);
    expect(await eventually(() => server.log.aborts.get("deleted") === -32006)).toBe(true);
    const rest = await resume(server.url, lastId(first.text));
    expect(finalOf(rest.text)[0]!.error!.code).toBe(-32006);
  });
});

describe("who may resume (docs/resumable-streams.md, security model)", () => {
  it("another identity, a forged stream, a malformed id: refused, and nothing of the stream is sent", async () => {
    const first = await postStream(
      server.url,
      "mine",
      { steps: 6, ms: 30 },
      { headers: { ...OPT_IN, ...auth("alice") }, until: (text) => text.includes('"step":1') },
    );
    const id = lastId(first.text);
    const other = await resume(server.url, id, { headers: auth("mallory") });
    expect(other.status).toBe(404);
    expect((JSON.parse(other.text) as Frame).error).toMatchObject({ code: -32015, data: { field: "Last-Event-ID" } });
    expect(other.text).not.toContain("progress");
    const anonymous = await resume(server.url, id);
    expect(anonymous.status).toBe(404);
    const forged = await resume(server.url, `${crypto.randomUUID()}:1`, { headers: auth("alice") });
    expect(forged.status).toBe(404);
    const malformed = await resume(server.url, "1", { headers: auth("alice") });
    expect(malformed.status).toBe(400);
    expect((JSON.parse(malformed.text) as Frame).error).toMatchObject({
      code: -32600,
      data: { field: "Last-Event-ID" },
    });
    const cancelled = await resume(server.url, id, { method: "DELETE", headers: auth("mallory") });
    expect(cancelled.status).toBe(404);
    // The owner still resumes, and the handler was never cancelled by the others.
    const rest = await resume(server.url, id, { headers: auth("alice") });
    expect(finalOf(rest.text)).toEqual([{ jsonrpc: "2.0", id: "mine", result: { steps: 6 } }]);
    expect(server.log.aborts.has("mine")).toBe(false);
  });

  it("a finished stream is refused once its time to live has passed", async () => {
    const { text } = await postStream(server.url, "expired", { steps: 2 }, { headers: { ...OPT_IN, ...auth("ttl") } });
    expect((await resume(server.url, lastId(text), { headers: auth("ttl") })).status).toBe(200);
    await wait(RESUMABLE.ttlMs + 200);
    expect((await resume(server.url, lastId(text), { headers: auth("ttl") })).status).toBe(404);
  });
});

describe("bounds", () => {
  it("frames per stream: the oldest progress is dropped, the response never", async () => {
    const first = await postStream(
      server.url,
      "long",
      { steps: 80 },
      { headers: { ...OPT_IN, ...auth("frames") }, until: (text) => text.includes('"step":1}') },
    );
    // The handler has finished: what is replayed is what the store kept.
    await eventually(() => server.log.done.has("long"));
    const rest = await resume(server.url, lastId(first.text), { headers: auth("frames") });
    const seen = steps(rest.text);
    expect(seen.length).toBeLessThanOrEqual(RESUMABLE.maxFrames);
    expect(seen.at(-1)).toBe(80);
    expect(finalOf(rest.text)).toEqual([{ jsonrpc: "2.0", id: "long", result: { steps: 80 } }]);
  });

  it("streams per caller: past the bound a request streams as plain RCP/1; other callers are unaffected", async () => {
    const held: unknown[] = [];
    for (let index = 0; index < RESUMABLE.maxStreamsPerCaller; index++)
      held.push(
        await postStream(
          server.url,
          `flood-${index}`,
          { steps: 100, ms: 50 },
          { headers: { ...OPT_IN, ...auth("flood") }, until: (text) => text.includes("id:") },
        ),
      );
    const over = await postStream(server.url, "flood-over", { steps: 1 }, { headers: { ...OPT_IN, ...auth("flood") } });
    expect(over.text).not.toContain("id:");
    expect(finalOf(over.text)).toEqual([{ jsonrpc: "2.0", id: "flood-over", result: { steps: 1 } }]);
    const other = await postStream(server.url, "not-flood", { steps: 1 }, { headers: { ...OPT_IN, ...auth("legit") } });
    expect(other.text).toContain("id:");
    // The flood's handlers end with their grace period.
    expect(await eventually(() => held.every((_, index) => server.log.aborts.has(`flood-${index}`)))).toBe(true);
  });
});

describe("a stateful server (§5.2 sessions)", () => {
  let stateful: TestServer;
  beforeAll(async () => {
    stateful = await startServer({ sessions: "stateful", resumable: RESUMABLE });
  });
  afterAll(() => stateful.close());

  const session = async () => {
    const response = await fetch(`${stateful.url}/initialize`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: rpc(1, "initialize", { protocolVersion: 1, capabilities: {} }),
    });
    return ((await response.json()) as { result: { _meta: { session: string } } }).result._meta.session;
  };

  it("only the session that started a stream resumes it; another session, or none, gets 404", async () => {
    const [mine, theirs] = [await session(), await session()];
    const first = await postStream(
      stateful.url,
      "session-bound",
      { steps: 6, ms: 30 },
      {
        headers: { ...OPT_IN, "rcp-session": mine },
        until: (text) => text.includes('"step":1}'),
      },
    );
    const id = lastId(first.text);
    expect((await resume(stateful.url, id, { headers: { "rcp-session": theirs } })).status).toBe(404);
    expect((await resume(stateful.url, id)).status).toBe(404);
    const rest = await resume(stateful.url, id, { headers: { "rcp-session": mine } });
    expect(finalOf(rest.text)).toEqual([{ jsonrpc: "2.0", id: "session-bound", result: { steps: 6 } }]);
  });

  it("notifications/cancel on the session aborts a resumable stream's handler at once (§7.14)", async () => {
    const mine = await session();
    const first = await postStream(
      stateful.url,
      "cancel-me",
      { steps: 200, ms: 20 },
      {
        headers: { ...OPT_IN, "rcp-session": mine },
        until: (text) => text.includes("progress"),
      },
    );
    await fetch(`${stateful.url}/notifications/cancel`, {
      method: "POST",
      headers: { "content-type": "application/json", "rcp-session": mine },
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancel", params: { id: "cancel-me" } }),
    });
    expect(await eventually(() => stateful.log.aborts.get("cancel-me") === -32006)).toBe(true);
    const rest = await resume(stateful.url, lastId(first.text), { headers: { "rcp-session": mine } });
    expect(finalOf(rest.text)[0]!.error!.code).toBe(-32006);
  });
});

describe("bounds of a small server", () => {
  let small: TestServer;
  beforeAll(async () => {
    small = await startServer({ resumable: { graceMs: 300, ttlMs: 1000, maxBytes: 1000, maxStreams: 2 } });
  });
  afterAll(() => small.close());

  it("bytes per stream: the oldest progress is dropped past maxBytes, the response never", async () => {
    const first = await postStream(
      small.url,
      "bytes",
      { steps: 30 },
      {
        headers: OPT_IN,
        until: (text) => text.includes('"step":1}'),
      },
    );
    await eventually(() => small.log.done.has("bytes"));
    const rest = await resume(small.url, lastId(first.text));
    const kept = parseSse(rest.text).filter((event) => event.data !== undefined);
    expect(kept.reduce((sum, event) => sum + event.data!.length, 0)).toBeLessThanOrEqual(1000 + 200);
    expect(steps(rest.text).at(-1)).toBe(30);
    expect(steps(rest.text).length).toBeLessThan(29);
    expect(finalOf(rest.text)).toEqual([{ jsonrpc: "2.0", id: "bytes", result: { steps: 30 } }]);
  });

  it("a handler silent for longer than ttlMs keeps its stream: the time to live counts from the last frame of a finished stream", async () => {
    const first = await postStream(
      small.url,
      "silent",
      { steps: 1, ms: 1300 },
      {
        headers: OPT_IN,
        until: (text) => text.includes(":0\n"),
      },
    );
    const rest = await resume(small.url, lastId(first.text));
    expect(finalOf(rest.text)).toEqual([{ jsonrpc: "2.0", id: "silent", result: { steps: 1 } }]);
  });

  it("streams per process: past maxStreams a request streams as plain RCP/1", async () => {
    await postStream(small.url, "second", { steps: 1 }, { headers: OPT_IN });
    const over = await postStream(small.url, "third", { steps: 1 }, { headers: OPT_IN });
    expect(over.text).not.toContain("id:");
    expect(finalOf(over.text)).toEqual([{ jsonrpc: "2.0", id: "third", result: { steps: 1 } }]);
  });
});
