/**
 * The two transports the fuzzer attacks. Each sends one generated sequence and reports what
 * it saw against the oracle: problems (empty when the server behaved) and answers checked.
 */
import type { FuzzFrame } from "./frames.js";
import { expectAnswers, mergeExpected, ndjsonLineText, responseProblems, type Expected } from "./oracle.js";
import { FUZZ_LIMITS, ServerProcess } from "./server-process.js";

export interface Verdict {
  problems: string[];
  answers: number;
}

export interface FuzzTarget {
  readonly name: string;
  exchange(frames: FuzzFrame[]): Promise<Verdict>;
  /** Heap in use after a full collection, in bytes. */
  heapUsed(): Promise<number>;
  readonly alive: boolean;
  readonly stderr: string;
  close(): void;
}

const ANSWER_WAIT_MS = 5000;
const INITIALIZE = '{"jsonrpc":"2.0","id":"fuzz-init","method":"initialize","params":{"protocolVersion":1}}';

/** Tallies answers by id; notifications are checked for shape only. */
class Tally {
  readonly ids = new Map<string, number>();
  nulls = 0;
  answers = 0;
  readonly problems: string[] = [];

  add(answer: unknown): void {
    this.answers++;
    this.problems.push(...responseProblems(answer));
    const id = (answer as { id?: unknown }).id;
    if (id === null) this.nulls++;
    else {
      const key = JSON.stringify(id);
      this.ids.set(key, (this.ids.get(key) ?? 0) + 1);
    }
  }

  /** Every line: JSON, and either a notification, an answer, or a batch of answers. */
  addLine(line: string, batches: { count: number }): void {
    let frame: unknown;
    try {
      frame = JSON.parse(line);
    } catch {
      this.problems.push(`stdout line is not JSON: ${line.slice(0, 80)}`);
      return;
    }
    if (Array.isArray(frame)) {
      batches.count++;
      if (frame.length === 0) this.problems.push("an empty batch answer");
      frame.forEach((member) => this.add(member));
    } else if (typeof frame === "object" && frame !== null && "method" in frame) {
      if ("id" in frame) this.problems.push(`a server notification carries an id: ${line.slice(0, 80)}`);
    } else this.add(frame);
  }

  covers(expected: Expected): boolean {
    if (this.nulls < expected.nulls) return false;
    for (const [id, count] of expected.ids) if ((this.ids.get(id) ?? 0) < count) return false;
    return true;
  }

  /** Answers missing, duplicated or unasked for. */
  mismatches(expected: Expected): string[] {
    const found: string[] = [];
    if (this.nulls !== expected.nulls) found.push(`${this.nulls} answers with id null, expected ${expected.nulls}`);
    for (const id of new Set([...expected.ids.keys(), ...this.ids.keys()])) {
      const want = expected.ids.get(id) ?? 0;
      const got = this.ids.get(id) ?? 0;
      if (want !== got) found.push(`id ${id}: ${got} answers, expected ${want}`);
    }
    return found;
  }
}

export async function stdioTarget(): Promise<FuzzTarget> {
  const server = new ServerProcess("stdio");
  server.write(INITIALIZE + "\n");
  if (!(await server.until(() => server.lines.length > 0, ANSWER_WAIT_MS)))
    throw new Error(`no initialize answer: ${server.stderr}`);
  let read = server.lines.length;

  const exchange = async (frames: FuzzFrame[]): Promise<Verdict> => {
    const expected = expectAnswers(undefined, FUZZ_LIMITS);
    let batchesExpected = 0;
    for (const frame of frames) {
      const text = ndjsonLineText(frame.bytes);
      const more = expectAnswers(text, FUZZ_LIMITS);
      mergeExpected(expected, more);
      if (more.batch) batchesExpected++;
      server.write(Buffer.concat([frame.bytes, Buffer.from("\n")]));
    }
    const tally = new Tally();
    const batches = { count: 0 };
    const consume = () => {
      for (; read < server.lines.length; read++) tally.addLine(server.lines[read]!, batches);
      return tally.covers(expected);
    };
    await server.until(consume, ANSWER_WAIT_MS);
    const problems = [...tally.problems, ...tally.mismatches(expected)];
    if (batches.count !== batchesExpected) problems.push(`${batches.count} batch answers, expected ${batchesExpected}`);
    if (!server.alive) problems.push(`the server exited (${server.exitCode}): ${server.stderr.slice(-400)}`);
    return { problems, answers: tally.answers };
  };

  return {
    name: "stdio",
    exchange,
    async heapUsed() {
      server.write('{"jsonrpc":"2.0","id":"fuzz-heap","method":"x-harden/memory"}\n');
      let heap = Number.NaN;
      await server.until(() => {
        for (; read < server.lines.length; read++) {
          const frame = JSON.parse(server.lines[read]!) as { id?: string; result?: { heapUsedBytes: number } };
          if (frame.id === "fuzz-heap") heap = frame.result!.heapUsedBytes;
        }
        return !Number.isNaN(heap);
      }, ANSWER_WAIT_MS);
      return heap;
    },
    get alive() {
      return server.alive;
    },
    get stderr() {
      return server.stderr;
    },
    close: () => server.stop(),
  };
}

export async function httpTarget(): Promise<FuzzTarget> {
  const server = new ServerProcess("http");
  if (!(await server.until(() => server.lines.length > 0, ANSWER_WAIT_MS))) throw new Error(`no url: ${server.stderr}`);
  const { url } = JSON.parse(server.lines[0]!) as { url: string };

  /** One POST; SSE is asked for on every other frame so both response forms are fuzzed. */
  const post = async (frame: FuzzFrame, sse: boolean): Promise<Verdict> => {
    const expected = expectAnswers(frame.bytes.toString("utf8"), FUZZ_LIMITS);
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: sse ? "text/event-stream" : "application/json" },
      body: new Uint8Array(frame.bytes),
    });
    const body = await response.text();
    const tally = new Tally();
    const problems: string[] = [];
    const total = expected.nulls + [...expected.ids.values()].reduce((sum, n) => sum + n, 0);
    if (expected.unparseable) {
      if (response.status !== 400) problems.push(`unparseable body: HTTP ${response.status}, expected 400`);
      tally.addLine(body, { count: 0 });
    } else if (sse && expected.streamable) {
      const frames = body.split("\n\n").filter((block) => block.startsWith("data: "));
      frames.forEach((block) => tally.addLine(block.slice(6), { count: 0 }));
      if (tally.answers !== 1) problems.push(`SSE stream carried ${tally.answers} answers`);
    } else if (total === 0) {
      if (response.status !== 204 || body !== "")
        problems.push(`nothing to answer: HTTP ${response.status} ${body.slice(0, 80)}`);
    } else {
      if (response.status !== 200) problems.push(`HTTP ${response.status}, expected 200`);
      const batches = { count: 0 };
      tally.addLine(body, batches);
      if (batches.count !== (expected.batch ? 1 : 0)) problems.push(`batch form mismatch: ${body.slice(0, 80)}`);
    }
    problems.push(...tally.problems, ...tally.mismatches(expected));
    return { problems, answers: tally.answers };
  };

  return {
    name: "http",
    async exchange(frames) {
      const verdicts = await Promise.all(frames.map((frame, i) => post(frame, i % 2 === 1)));
      const problems = verdicts.flatMap((verdict) => verdict.problems);
      if (!server.alive) problems.push(`the server exited (${server.exitCode}): ${server.stderr.slice(-400)}`);
      return { problems, answers: verdicts.reduce((sum, verdict) => sum + verdict.answers, 0) };
    },
    async heapUsed() {
      const response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: '{"jsonrpc":"2.0","id":1,"method":"x-harden/memory"}',
      });
      return ((await response.json()) as { result: { heapUsedBytes: number } }).result.heapUsedBytes;
    },
    get alive() {
      return server.alive;
    },
    get stderr() {
      return server.stderr;
    },
    close: () => server.stop(),
  };
}
