/**
 * Hostile input over stdio (§4.1, §4.7, §5.1, §11, §15.5), against the hardening server as
 * a real child process: every malformed line gets its precise error, nothing crashes the
 * process or blows its stack, an oversized line is refused without being buffered, and no
 * key in params reaches a prototype.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StdioChild } from "../runtime/server/helpers/stdio-child.js";
import { hardeningStdio } from "./children.js";
import type { RpcReply } from "./http-client.js";
import {
  DEEP,
  HUGE_MIB,
  NEVER_BUFFERED_BYTES,
  envelopeCases,
  nested,
  prototypeKeys,
  prototypesUntouched,
} from "./hostile-input.js";

const MAX_MESSAGE_BYTES = 1024 * 1024;
let child: StdioChild;
beforeAll(async () => {
  child = await hardeningStdio({ limits: { maxMessageBytes: MAX_MESSAGE_BYTES, maxBatchSize: 8, maxInFlight: 4 } });
});
afterAll(() => child.kill());

/** Sends one raw line and waits for the next answer carrying `id`. */
async function answerTo(line: string | Buffer, id: unknown): Promise<RpcReply> {
  const before = child.responsesFor(id).length;
  child.writeRaw(line);
  child.writeRaw("\n");
  await child.next(() => child.responsesFor(id).length > before);
  return child.responsesFor(id).at(-1)! as RpcReply;
}

/** The first batch answer (an array frame) whose members satisfy `predicate`. */
async function batchAnswer(predicate: (members: RpcReply[]) => boolean): Promise<RpcReply[]> {
  const frame = await child.next((candidate) => Array.isArray(candidate) && predicate(candidate));
  return frame as unknown as RpcReply[];
}

/** What x-harden/memory answers. */
interface Memory {
  maxRssBytes: number;
}

async function stillServing(tag: string): Promise<void> {
  expect((await child.request("ping", { nonce: tag }, `alive:${tag}`)).result).toEqual({ nonce: tag });
}

describe("malformed envelopes over stdio (§4.1, §4.7)", () => {
  it.each(envelopeCases)("$name: $code with id $id, and the connection goes on", async ({ name, body, id, code }) => {
    const answer = await answerTo(body, id);
    expect(answer.error.code).toBe(code);
    await stillServing(name);
  });

  it("§4.5 a malformed message without an id is never answered", async () => {
    const linesBefore = child.lines().length;
    child.send('{"jsonrpc":"2.0","method":"ping","params":"x"}');
    child.send('{"jsonrpc":"2.0","method":"notifications/cancel","params":[1]}');
    await stillServing("silent");
    expect(child.lines().length).toBe(linesBefore + 1);
  });
});

describe("bytes that are not UTF-8 (§5.1)", () => {
  it("an invalid sequence inside a string is -32700 with id null, never silently replaced", async () => {
    const line = Buffer.concat([
      Buffer.from('{"jsonrpc":"2.0","id":"utf8","method":"ping","params":{"nonce":"a'),
      Buffer.from([0xff, 0xc3, 0x28, 0xe2, 0x82]),
      Buffer.from('b"}}'),
    ]);
    const answer = await answerTo(line, null);
    expect(answer.error).toEqual({ code: -32700, message: "Parse error: the message is not valid UTF-8" });
    await stillServing("after-invalid-string");
  });

  it("invalid bytes outside a string are -32700 with id null", async () => {
    expect((await answerTo(Buffer.from([0xff, 0xfe, 0x7b, 0x7d]), null)).error.code).toBe(-32700);
    await stillServing("after-bytes");
  });
});

describe("depth and length (§15.5)", () => {
  it(`an array nested ${DEEP} levels is a one-member batch answered -32600, without a stack overflow`, async () => {
    child.send(nested("[", "]", DEEP));
    const batch = await batchAnswer((members) => members[0]?.id === null);
    expect(batch).toEqual([{ jsonrpc: "2.0", id: null, error: expect.objectContaining({ code: -32600 }) as unknown }]);
  });

  it(`params nested ${DEEP} levels deep are answered: a result that cannot be serialised is -32603`, async () => {
    const answer = await answerTo(
      `{"jsonrpc":"2.0","id":"deep","method":"x-test/echo","params":{"a":${nested('{"a":', "}", DEEP, "1")}}}`,
      "deep",
    );
    expect(answer.error).toEqual({ code: -32603, message: "Internal error" });
    await stillServing("after-deep");
  });

  it(`a filter nested ${DEEP} levels is -32602 naming the filter, and unbalanced nesting is -32700`, async () => {
    const filter = nested('{"not":', "}", DEEP, '{"field":"lang","op":"eq","value":"en"}');
    const answer = await answerTo(
      `{"jsonrpc":"2.0","id":"deepf","method":"retrieve","params":{"query":"q","filter":${filter}}}`,
      "deepf",
    );
    expect(answer.error).toMatchObject({
      code: -32602,
      data: { field: expect.stringMatching(/^filter(\.not)+$/) as unknown },
    });
    expect((await answerTo("[".repeat(DEEP), null)).error.code).toBe(-32700);
  });

  it(`params nested ${DEEP} levels under a recursive schema are -32602, not an internal error`, async () => {
    const tree = nested('{"child":', "}", DEEP, "{}");
    const answer = await answerTo(
      `{"jsonrpc":"2.0","id":"tree","method":"x-harden/tree","params":{"tree":${tree}}}`,
      "tree",
    );
    expect(answer.error).toMatchObject({ code: -32602, data: { field: "params" } });
    const shallow = await child.request("x-harden/tree", { tree: { child: { child: {} } } }, "shallow-tree");
    expect(shallow.result).toEqual({ accepted: true });
  });

  it("a string just under the size limit is echoed intact", async () => {
    const nonce = "é".repeat((MAX_MESSAGE_BYTES - 200) / 2);
    expect(((await child.request("ping", { nonce }, "long")).result as { nonce: string }).nonce).toBe(nonce);
  });

  it(`§15.5 a ${HUGE_MIB} MiB line is one -32013 with id null, is never buffered whole, and the connection goes on`, async () => {
    const before = (await child.request<Memory>("x-harden/memory", {}, "rss-before")).result.maxRssBytes;
    const chunk = Buffer.alloc(1024 * 1024, 0x61);
    const oversizedBefore = child
      .responsesFor(null)
      .filter((frame) => (frame as RpcReply).error?.code === -32013).length;
    child.writeRaw('{"jsonrpc":"2.0","id":"huge","method":"ping","params":{"nonce":"');
    for (let i = 0; i < HUGE_MIB; i++) child.writeRaw(chunk);
    child.writeRaw('"}}\n');
    await stillServing("after-huge");
    const refusals = child.responsesFor(null).filter((frame) => (frame as RpcReply).error?.code === -32013);
    expect(refusals.length).toBe(oversizedBefore + 1);
    expect(child.responsesFor("huge")).toEqual([]);
    const after = (await child.request<Memory>("x-harden/memory", {}, "rss-after")).result.maxRssBytes;
    expect(after - before).toBeLessThan(NEVER_BUFFERED_BYTES);
  });
});

describe("limits on batches and concurrency (§11, §4.7, §12.2)", () => {
  it("§11 a batch above maxBatchSize is one -32013 with id null; one at the limit is answered in full", async () => {
    const batch = (size: number, tag: string) =>
      JSON.stringify(Array.from({ length: size }, (_, i) => ({ jsonrpc: "2.0", id: `${tag}${i}`, method: "ping" })));
    expect((await answerTo(batch(9, "over"), null)).error.code).toBe(-32013);
    child.send(batch(8, "at"));
    const answered = await batchAnswer((members) => members[0]?.id === "at0");
    expect(answered.map((member) => member.id)).toEqual(["at0", "at1", "at2", "at3", "at4", "at5", "at6", "at7"]);
  });

  it("§4.7 beyond maxInFlight requests are shed with -32011, retryable with retryAfterMs; capacity returns", async () => {
    for (let i = 0; i < 10; i++)
      child.send({ jsonrpc: "2.0", id: `flood${i}`, method: "x-test/sleep", params: { ms: 200 } });
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => child.response(`flood${i}`)));
    expect(answers.filter((answer) => answer.result).length).toBe(4);
    const shed = answers.filter((answer) => answer.error);
    expect(shed).toHaveLength(6);
    for (const answer of shed) {
      expect(answer.error).toMatchObject({
        code: -32011,
        data: { retryable: true, retryAfterMs: expect.any(Number) as unknown },
      });
    }
    expect((await child.request("x-test/sleep", { ms: 1 }, "after-flood")).result).toEqual({ slept: 1 });
  });
});

describe("prototype keys (§15.4)", () => {
  it("__proto__, constructor and prototype in params and _meta stay plain data and pollute nothing", async () => {
    const answer = await answerTo(
      `{"jsonrpc":"2.0","id":"proto","method":"x-harden/prototypes","params":${prototypeKeys}}`,
      "proto",
    );
    expect(answer.result).toEqual(prototypesUntouched);
  });

  it("§8 a filter on a field named after a prototype member is an unadvertised field (-32602)", async () => {
    for (const field of ["__proto__", "constructor", "toString", "hasOwnProperty"]) {
      const reply = await child.request(
        "retrieve",
        { query: "q", filter: { field, op: "eq", value: 1 } },
        `pf:${field}`,
      );
      expect(reply.error).toMatchObject({ code: -32602, data: { field: `filter.${field}` } });
    }
  });
});
