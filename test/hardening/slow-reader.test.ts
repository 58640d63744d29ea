/**
 * A client that stops reading for 10 s while a handler yields 100,000 progress events
 * (§9, §15.5), over stdio and over SSE (node:http): the server's live memory, measured in its
 * own process after a full collection, stays within 20 MB of where it started; the progress
 * that does arrive is in order; and the final response arrives. The server reports how many
 * progress frames it coalesced. Inherently ~11 s each; the two run side by side.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { request, type IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { HARDENING_SERVER } from "./children.js";

const EVENTS = 100_000;
const STALL_MS = 10_000;
const MEMORY_BUDGET_BYTES = 20 * 1024 * 1024;
const flood = (id: number) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "x-harden/flood",
    params: { events: EVENTS, padBytes: 300, _meta: { progressToken: "flood" } },
  });

interface Memory {
  heapUsed: number;
  external: number;
  rss: number;
  maxRss: number;
}

/** The hardening server with --expose-gc, so its memory reports are after a full collection. */
function floodServer(mode: "stdio" | "http"): { child: ChildProcessWithoutNullStreams; stderr: () => string } {
  const child = spawn(process.execPath, ["--expose-gc", HARDENING_SERVER, mode]);
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
  return { child, stderr: () => stderr };
}

/** What the server said about memory and coalescing, once its handler has finished. */
function serverReport(stderr: string) {
  const memory = (label: string) =>
    JSON.parse(new RegExp(`x-harden/flood ${label} (\\{.*\\})`).exec(stderr)![1]!) as Memory;
  const coalesced = /(\d+) progress frames coalesced, (\d+) notifications dropped/.exec(stderr);
  return { start: memory("start"), end: memory("end"), coalesced: Number(coalesced?.[1] ?? 0) };
}

/** A frame the client received: progress notifications, then the final response. */
interface ReceivedFrame {
  method?: string;
  params?: { message: string };
}

/**
 * What the stalled client and the server saw: the frames in order and the final response
 * last; the server's memory bounded; every event either received or coalesced.
 */
async function expectOutcome(transport: string, frames: ReceivedFrame[], stderr: () => string) {
  const { progress } = checkFrames(frames);
  expectBoundedMemory(transport, progress, stderr);
  await waitFor(() => /coalesced/.test(stderr()));
  expect(serverReport(stderr()).coalesced + progress).toBe(EVENTS);
}

/** The frames a client received, checked for order; returns how many were progress. */
function checkFrames(frames: ReceivedFrame[]) {
  const final = frames.at(-1)!;
  const progress = frames.slice(0, -1);
  expect(progress.every((frame) => frame.method === "notifications/progress")).toBe(true);
  const numbers = progress.map((frame) => Number(/^#(\d+)/.exec(frame.params!.message)![1]));
  expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
  expect(new Set(numbers).size).toBe(numbers.length);
  expect(numbers.at(-1)).toBe(EVENTS);
  expect(final).toMatchObject({ id: 2, result: { events: EVENTS } });
  return { progress: progress.length };
}

/** The server's memory from before the first event to after the last: live (after a full collection) and peak resident. */
function expectBoundedMemory(transport: string, received: number, stderr: () => string): void {
  const report = serverReport(stderr());
  const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
  const live = report.end.heapUsed + report.end.external - (report.start.heapUsed + report.start.external);
  console.info(
    `slow reader over ${transport}: ${EVENTS} events, ${received} progress frames received, ` +
      `${report.coalesced} coalesced; live memory +${mb(live)} MB, peak RSS +${mb(report.end.maxRss - report.start.maxRss)} MB`,
  );
  expect(live).toBeLessThan(MEMORY_BUDGET_BYTES);
  // Resident memory too, garbage included (~11 MB of young-generation churn from 100,000 events).
  expect(report.end.maxRss - report.start.maxRss).toBeLessThan(MEMORY_BUDGET_BYTES);
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.concurrent("a reader that stops for 10 s while 100,000 progress events are yielded (§9, §15.5)", () => {
  it("over stdio", async () => {
    const { child, stderr } = floodServer("stdio");
    try {
      let text = "";
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
      child.stdin.write(
        `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 1 } })}\n`,
      );
      while (!text.includes("\n")) await wait(10);
      text = "";
      child.stdin.write(`${flood(2)}\n`);
      child.stdout.pause();
      await wait(STALL_MS);
      expect(stderr()).toContain("x-harden/flood end");
      child.stdout.resume();
      while (!text.includes('"id":2')) await wait(20);
      while (!text.endsWith("\n")) await wait(10);
      const frames = text
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as ReceivedFrame);
      await expectOutcome("stdio", frames, stderr);
    } finally {
      child.kill();
    }
  });

  it("over SSE (node:http)", async () => {
    const { child, stderr } = floodServer("http");
    try {
      let stdout = "";
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
      while (!stdout.includes("\n")) await wait(10);
      const { url } = JSON.parse(stdout) as { url: string };
      const response = await new Promise<IncomingMessage>((resolve, reject) => {
        const outgoing = request(`${url}/x-harden/flood`, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "text/event-stream" },
        });
        outgoing.once("response", resolve).once("error", reject).end(flood(2));
      });
      expect(response.headers["content-type"]).toBe("text/event-stream");
      response.pause();
      let text = "";
      response.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
      const ended = new Promise((resolve) => response.once("end", resolve));
      await wait(STALL_MS);
      expect(stderr()).toContain("x-harden/flood end");
      response.resume();
      await ended;
      const frames = text
        .split("\n\n")
        .filter((block) => block.startsWith("data: "))
        .map((block) => JSON.parse(block.slice(6)) as ReceivedFrame);
      await expectOutcome("SSE", frames, stderr);
    } finally {
      child.kill();
    }
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await wait(20);
  }
}
