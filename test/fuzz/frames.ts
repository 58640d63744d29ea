/**
 * What the fuzzer sends: valid RCP/1 frames for the hardening server's methods, the same
 * frames with one field changed, random JSON, and random bytes. Every frame is one line
 * (no 0x0A inside), so the stdio stream splits exactly where the fuzzer meant it to.
 */
import fc from "fast-check";
import { hardeningProtocol } from "../fixtures/hardening/hardening-protocol.js";

export type FrameKind = "valid" | "mutated" | "json" | "bytes";

export interface FuzzFrame {
  kind: FrameKind;
  bytes: Buffer;
}

/**
 * Every method the hardening server knows, plus an unknown one and a notification sent as a
 * request. Never `shutdown`, which ends the session; not the heap probe, which runs a full GC.
 */
const METHODS = [
  ...Object.keys(hardeningProtocol.methods).filter((method) => method !== "shutdown" && method !== "x-harden/memory"),
  "no/such-method",
  "notifications/progress",
];

/** Methods whose handlers misbehave on purpose: each request for one is an injected fault. */
export const FAULTY_METHODS = new Set<string>(
  METHODS.filter((method) => /^x-harden\/|crash|malformed|fail-mid|hang|noisy|non-finite/.test(method)),
);

const smallJson = fc.jsonValue({ maxDepth: 3 });

const id = fc.oneof(fc.integer({ min: -1e9, max: 1e9 }), fc.string({ minLength: 1, maxLength: 12 }));

const meta = fc.record(
  {
    progressToken: fc.oneof(fc.string({ maxLength: 6 }), fc.integer()),
    logLevel: fc.constantFrom("debug", "info", "error", "loud"),
    deadlineMs: fc.integer({ min: 0, max: 200 }),
  },
  { requiredKeys: [] },
);

const filterTree: fc.Arbitrary<unknown> = fc.letrec<{ tree: unknown }>((tie) => ({
  tree: fc.oneof(
    { depthSize: "small" },
    fc.record({
      field: fc.constantFrom("lang", "year", "author"),
      op: fc.constantFrom("eq", "gte", "ne", "in"),
      value: smallJson,
    }),
    fc.record({ and: fc.array(tie("tree"), { maxLength: 3 }) }),
    fc.record({ not: tie("tree") }),
  ),
})).tree;

const params = fc.record(
  {
    query: fc.string({ unit: "binary", maxLength: 20 }),
    q: fc.string({ maxLength: 5 }),
    k: fc.integer({ min: -2, max: 200 }),
    candidateK: fc.integer({ min: 0, max: 200 }),
    rerank: fc.record({ topN: fc.integer({ min: 0, max: 200 }) }),
    mode: fc.constantFrom("dense", "hybrid", "sparse"),
    strict: fc.boolean(),
    filter: filterTree,
    ms: fc.integer({ min: 0, max: 40 }),
    steps: fc.integer({ min: 0, max: 3 }),
    nonce: fc.oneof(fc.string({ maxLength: 8 }), fc.integer()),
    protocolVersion: fc.integer({ min: -1, max: 3 }),
    id,
    _meta: meta,
  },
  { requiredKeys: [] },
);

type Message = Record<string, unknown>;

const request: fc.Arbitrary<Message> = fc.record({
  jsonrpc: fc.constant("2.0"),
  id,
  method: fc.constantFrom(...METHODS),
  params,
});

const notification: fc.Arbitrary<Message> = fc.record({
  jsonrpc: fc.constant("2.0"),
  method: fc.constantFrom("notifications/cancel", "notifications/unknown", "ping"),
  params: fc.record({ id }, { requiredKeys: [] }),
});

const message = fc.oneof({ weight: 4, arbitrary: request }, { weight: 1, arbitrary: notification });

/** A field's replacement: a value of the wrong type, or one near a boundary. */
const oddValue = fc.oneof(
  smallJson,
  fc.constantFrom(null, true, false, 0, -0, 1.5, -1, 2 ** 53, "", "2.0 ", [], {}, [1]),
);

/** One field changed, removed or added: the mutation a buggy or hostile client makes. */
function mutate(original: Message): fc.Arbitrary<Message | unknown[]> {
  const keys = Object.keys(original);
  return fc.oneof<fc.Arbitrary<Message | unknown[]>[]>(
    fc.tuple(fc.constantFrom(...keys), oddValue).map(([key, value]) => ({ ...original, [key]: value })),
    fc.constantFrom(...keys).map((key) => {
      const { [key]: _dropped, ...rest } = original;
      return rest;
    }),
    fc.tuple(fc.string({ maxLength: 8 }), oddValue).map(([key, value]) => ({ ...original, [key]: value })),
    fc.constant(Object.assign(JSON.parse('{"__proto__":{"polluted":true}}') as Message, original)),
    fc.constant<unknown[]>([original]),
  );
}

const line = (text: string): Buffer => Buffer.from(text.replace(/\n/g, " "), "utf8");

const batch = fc.array(message, { minLength: 0, maxLength: 10 });

export const fuzzFrame: fc.Arbitrary<FuzzFrame> = fc.oneof(
  { weight: 4, arbitrary: message.map((m) => ({ kind: "valid" as const, bytes: line(JSON.stringify(m)) })) },
  { weight: 1, arbitrary: batch.map((b) => ({ kind: "valid" as const, bytes: line(JSON.stringify(b)) })) },
  {
    weight: 4,
    arbitrary: message.chain(mutate).map((m) => ({ kind: "mutated" as const, bytes: line(JSON.stringify(m)) })),
  },
  { weight: 1, arbitrary: fc.json({ maxDepth: 4 }).map((text) => ({ kind: "json" as const, bytes: line(text) })) },
  {
    weight: 1,
    arbitrary: fc
      .uint8Array({ maxLength: 120 })
      .map((bytes) => ({ kind: "bytes" as const, bytes: Buffer.from(bytes.filter((byte) => byte !== 0x0a)) })),
  },
);

/** A sequence sent back to back on one connection (stdio) or one POST each (HTTP). */
export const fuzzSequence = fc.array(fuzzFrame, { minLength: 1, maxLength: 25 });
