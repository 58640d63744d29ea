/**
 * Property: whatever arrives, the dispatcher answers every request with an id exactly once
 * with well-formed JSON-RPC, answers no notification, and never throws (§4, §11, §14.1(5)).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ServerCore } from "../../../runtime/src/server/core.js";
import { Connection } from "../../../runtime/src/server/connection.js";
import { testCapabilities, testProtocol } from "../../fixtures/test-protocol.js";
import { fixtureHandlers } from "../../fixtures/server/handlers.js";
import type { Frame } from "./helpers/stdio-child.js";

const core = new ServerCore(testProtocol, {
  info: { name: "property", version: "1" },
  capabilities: testCapabilities,
  conformance: "L0",
  handlers: fixtureHandlers,
  diagnostics: () => {},
  limits: { defaultDeadlineMs: 200 },
});

const methods = [
  ...Object.keys(testProtocol.methods),
  "notifications/cancel",
  "notifications/unknown",
  "no/such",
].filter(
  // Handlers that wait or write to the process's own stdio are exercised by the stdio tests.
  (method) =>
    !["x-test/hang", "x-test/noisy", "x-test/sleep", "x-test/stream", "x-test/fail-mid-stream"].includes(method),
);
const id = fc.oneof(fc.integer(), fc.string({ maxLength: 4 }));
const params = fc.oneof(
  fc.dictionary(
    fc.constantFrom("query", "k", "mode", "filter", "protocolVersion", "_meta", "nonce", "q"),
    fc.jsonValue(),
  ),
  fc.jsonValue(),
);
const request = fc.record(
  { jsonrpc: fc.constantFrom("2.0", "2.0", "1.0"), id, method: fc.constantFrom(...methods), params },
  { requiredKeys: ["jsonrpc", "method"] },
);
const message = fc.oneof(request, fc.array(fc.oneof(request, fc.jsonValue()), { maxLength: 4 }), fc.jsonValue());

/**
 * The ids the reply must carry, one per member: a string or number id is echoed; a member
 * that is not an object, or whose id is of another type, is answered with id null (JSON-RPC);
 * a notification (no id) is not answered. An empty batch is one id-null error (§11).
 */
function expectedIds(sent: unknown): unknown[] {
  if (Array.isArray(sent) && sent.length === 0) return [null];
  const members = Array.isArray(sent) ? sent : [sent];
  return members.flatMap((member) => {
    if (typeof member !== "object" || member === null || Array.isArray(member)) return [null];
    if (!("id" in member)) return [];
    const value = (member as { id?: unknown }).id;
    return typeof value === "string" || typeof value === "number" ? [value] : [null];
  });
}

const key = (value: unknown) => JSON.stringify(value);

describe("dispatch property (§4, §11)", () => {
  it("answers each request id exactly once with one well-formed response and never throws", async () => {
    await fc.assert(
      fc.asyncProperty(fc.boolean(), message, async (initialized, sent) => {
        const connection = new Connection(core.newSession(initialized));
        const copy = structuredClone(sent);
        const frame = await core.handleMessage(copy, {
          connection,
          channel: { send: () => {} },
          origin: { auth: undefined, transport: { kind: "memory" } },
        });
        const ids = expectedIds(sent);
        if (frame === undefined) {
          expect(ids).toEqual([]);
          return;
        }
        const parsed = JSON.parse(frame) as Frame | Frame[];
        const responses = Array.isArray(parsed) ? parsed : [parsed];
        for (const response of responses) {
          expect(response.jsonrpc).toBe("2.0");
          expect("result" in response !== "error" in response).toBe(true);
          if ("error" in response) expect(Number.isInteger(response.error.code)).toBe(true);
        }
        expect(responses.map((response) => key(response.id)).sort()).toEqual(ids.map(key).sort());
      }),
      { numRuns: 400 },
    );
  });
});
