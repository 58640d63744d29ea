/**
 * Hostile inputs shared by the stdio and HTTP hardening tests: malformed envelopes with the
 * JSON-RPC answer each must get (§4.1, §4.7, §11), deeply nested JSON, and params whose
 * keys try to reach a prototype.
 */

/** A message, and the id and error code its answer must carry. */
export interface EnvelopeCase {
  name: string;
  body: string;
  id: string | null;
  code: number;
}

const request = (id: string, rest: string) => `{"jsonrpc":"2.0","id":${id},${rest}}`;

export const envelopeCases: EnvelopeCase[] = [
  { name: "a bare number", body: "5", id: null, code: -32600 },
  { name: "a bare string", body: '"ping"', id: null, code: -32600 },
  { name: "null", body: "null", id: null, code: -32600 },
  { name: "true", body: "true", id: null, code: -32600 },
  { name: "truncated JSON", body: '{"jsonrpc":"2.0","id":', id: null, code: -32700 },
  { name: "trailing garbage", body: '{"jsonrpc":"2.0","id":"g","method":"ping"} x', id: null, code: -32700 },
  { name: "a NaN literal", body: '{"jsonrpc":"2.0","id":NaN,"method":"ping"}', id: null, code: -32700 },
  { name: "jsonrpc missing", body: '{"id":"j1","method":"ping"}', id: "j1", code: -32600 },
  { name: "jsonrpc as a number", body: '{"jsonrpc":2.0,"id":"j2","method":"ping"}', id: "j2", code: -32600 },
  { name: "jsonrpc 1.0", body: '{"jsonrpc":"1.0","id":"j3","method":"ping"}', id: "j3", code: -32600 },
  { name: "id true", body: request("true", '"method":"ping"'), id: null, code: -32600 },
  { name: "id false", body: request("false", '"method":"ping"'), id: null, code: -32600 },
  { name: "id null", body: request("null", '"method":"ping"'), id: null, code: -32600 },
  { name: "id an array", body: request('["i"]', '"method":"ping"'), id: null, code: -32600 },
  { name: "id beyond the double range", body: request("1e400", '"method":"ping"'), id: null, code: -32600 },
  { name: "id an object", body: request('{"i":1}', '"method":"ping"'), id: null, code: -32600 },
  { name: "method missing", body: request('"m1"', '"params":{}'), id: "m1", code: -32600 },
  { name: "method a number", body: request('"m2"', '"method":7'), id: "m2", code: -32600 },
  { name: "params an array", body: request('"p1"', '"method":"ping","params":["x"]'), id: "p1", code: -32602 },
  { name: "params a string", body: request('"p2"', '"method":"ping","params":"x"'), id: "p2", code: -32600 },
  { name: "params a number", body: request('"p3"', '"method":"ping","params":3'), id: "p3", code: -32600 },
  { name: "params null", body: request('"p4"', '"method":"ping","params":null'), id: "p4", code: -32600 },
  { name: "_meta a string", body: request('"p5"', '"method":"ping","params":{"_meta":"x"}'), id: "p5", code: -32602 },
];

/** `depth` levels of `open` around `inner`, closed again. */
export function nested(open: string, close: string, depth: number, inner = ""): string {
  return open.repeat(depth) + inner + close.repeat(depth);
}

export const DEEP = 100_000;

/** The size of the oversized message sent to check it is refused without being buffered (§15.5). */
export const HUGE_MIB = 128;

/**
 * Peak memory may rise by some tens of MiB while discarded bytes wait for a GC; buffering the
 * message whole would raise it by at least its size.
 */
export const NEVER_BUFFERED_BYTES = (HUGE_MIB / 2) * 1024 * 1024;

/**
 * Every key that could reach a prototype, at the top of params, nested and in `_meta`.
 * Written as raw JSON: an object literal's `__proto__` would set a prototype instead.
 */
export const prototypeKeys =
  '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"prototype":{"polluted":true},' +
  '"nested":{"__proto__":{"polluted":true}},"_meta":{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}}';

/** What x-harden/prototypes must report after receiving `prototypeKeys`. */
export const prototypesUntouched = {
  objectPrototypeClean: true,
  arrayPrototypeClean: true,
  paramsPrototype: true,
  metaPrototype: true,
  ownKeys: ["__proto__", "_meta", "constructor", "nested", "prototype"],
};
