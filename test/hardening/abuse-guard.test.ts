/**
 * The guard against issue-25-style abuse (§15.5): while one client holds slow bodies open and
 * loops over expensive but valid requests, a legitimate client keeps getting its answers, each
 * within a bound. Bounded in count (legitimate calls, abusive sockets) and time (a few seconds).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, type Listening } from "@rcp-gen/runtime/node";
import { createDemoServer } from "../../docs/examples/demo-engine/server.js";
import { DEFAULT_MAX_FILTER_CLAUSES } from "../../runtime/src/filter/validate.js";
import { parseReply, postOnce, rawExchange } from "./http-client.js";

const LEGITIMATE_CALLS = 16;
const SLOW_SOCKETS = 32;
/** Far above what a call waits behind the largest request the caps allow, far below what the uncapped ones took. */
const LATENCY_BOUND_MS = 5000;
/** The rerank cap of this server: the largest valid rerank is what the legitimate client may wait behind. */
const MAX_RERANK_CHARACTERS = 250_000;

let listening: Listening;
let port: number;
beforeAll(async () => {
  listening = await listen(createDemoServer({ limits: { maxRerankCharacters: MAX_RERANK_CHARACTERS } }), {
    port: 0,
    maxConcurrentRequests: 16,
    maxPendingBodies: 16,
    bodyTimeoutMs: 2000,
  });
  port = Number(new URL(listening.url).port);
});
afterAll(() => listening.close());

const rpc = (id: string, method: string, params: object) => JSON.stringify({ jsonrpc: "2.0", id, method, params });

/** Expensive requests, each within every cap or refused by one: the answer is a result or -32602. */
function expensiveRequests(): Array<[method: string, body: string]> {
  const words = Array.from({ length: 6000 }, (_, index) => `term${index}`).join(" ");
  const passage = "sourdough starter ".repeat(Math.floor(MAX_RERANK_CHARACTERS / 100 / 18));
  const clauses = (count: number) => Array.from({ length: count }, (_, value) => ({ field: "year", op: "eq", value }));
  return [
    ["query/transform", rpc("t", "query/transform", { query: words, method: "multi-query", n: 1000 })],
    ["retrieve", rpc("m", "retrieve", { query: words, k: 5, rewrite: "multi-query" })],
    ["rerank", rpc("r", "rerank", { query: "sourdough starter", passages: Array(100).fill(passage) })],
    ["rerank", rpc("R", "rerank", { query: "sourdough starter", passages: Array(100).fill(passage + passage) })],
    [
      "retrieve",
      rpc("f", "retrieve", { query: "sourdough", k: 5, filter: { or: clauses(DEFAULT_MAX_FILTER_CLAUSES) } }),
    ],
    ["retrieve", rpc("F", "retrieve", { query: "sourdough", k: 5, filter: { or: clauses(20_000) } })],
  ];
}

describe("§15.5 a legitimate client beside an abusive one", () => {
  it(
    "gets every answer within the bound while slow bodies and expensive requests go on",
    { timeout: 30_000 },
    async () => {
      let abusing = true;
      const abusiveAnswers: string[] = [];
      // Slow bodies: a request's headers and one byte of its body, reopened as the server closes them.
      const slowBodies = async (): Promise<void> => {
        while (abusing) {
          const { closed, socket } = rawExchange(
            port,
            `POST /rcp/ping HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 64\r\n\r\n{`,
          );
          const stop = setInterval(() => !abusing && socket.destroy(), 50);
          abusiveAnswers.push((await closed).split("\r\n", 1)[0] ?? "");
          clearInterval(stop);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      };
      const expensive = expensiveRequests();
      const expensiveLoop = async (offset: number): Promise<void> => {
        for (let index = offset; abusing; index++) {
          const [method, body] = expensive[index % expensive.length]!;
          // A large body still arriving when newer slow bodies crowd it out is given up (408, closed).
          const reply = await postOnce(`${listening.url}/${method}`, body).catch(() => undefined);
          if (reply === undefined || reply.status === 408) {
            abusiveAnswers.push("given up");
            continue;
          }
          const json = parseReply(reply.text);
          abusiveAnswers.push(json.error === undefined ? "result" : `error ${json.error.code}`);
        }
      };
      const abuse = [...Array.from({ length: SLOW_SOCKETS }, slowBodies), expensiveLoop(0)];

      const latencies: number[] = [];
      for (let call = 0; call < LEGITIMATE_CALLS; call++) {
        const started = performance.now();
        const reply = await postOnce(
          `${listening.url}/retrieve`,
          rpc(`legit-${call}`, "retrieve", { query: "sourdough", k: 3 }),
        );
        latencies.push(performance.now() - started);
        expect(reply.status).toBe(200);
        expect(JSON.parse(reply.text)).toMatchObject({
          id: `legit-${call}`,
          result: { hits: expect.any(Array) as unknown },
        });
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      abusing = false;
      await Promise.all(abuse);

      latencies.sort((a, b) => a - b);
      const p99 = latencies[Math.ceil(latencies.length * 0.99) - 1]!;
      expect(p99).toBeLessThan(LATENCY_BOUND_MS);
      // The abuser got answers too, never a failure of the server: results, -32602 caps, 408s for slow bodies.
      const kinds = new Set(abusiveAnswers.filter((answer) => answer !== ""));
      for (const kind of kinds)
        expect(["result", "error -32602", "given up", "HTTP/1.1 408 Request Timeout"]).toContain(kind);
      expect(kinds).toContain("error -32602");
      expect(kinds).toContain("HTTP/1.1 408 Request Timeout");
    },
  );
});
