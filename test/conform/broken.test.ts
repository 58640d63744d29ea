/**
 * `rcp-gen conform` against a deliberately broken server (test/fixtures/conform/broken-server.ts):
 * the runtime behind a layer that answers notifications, drops the final SSE frame and
 * advertises fewer modes than it serves. Each fault is reported, nothing else at L0, and the
 * exit code says the declared L0 does not hold.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BROKEN, failing, runConform, startHttpChild, type HttpChild, type JsonReport } from "./conform-cli.js";

const unanswered = [
  "gated-method",
  "open-method",
  "unknown-method",
  "reserved-unknown",
  "cancel-unknown-id",
  "malformed-params",
];
const notificationFaults = [
  ...unanswered.map((key) => `notify.unanswered-before-initialize:${key}`),
  ...unanswered.map((key) => `notify.unanswered:${key}`),
];
const gateFault = "option.unadvertised:retrieve.mode";

async function report(args: readonly string[]): Promise<{ report: JsonReport; status: number | null }> {
  const run = await runConform(["--json", ...args]);
  expect(run.stderr).toBe("");
  return { report: JSON.parse(run.stdout) as JsonReport, status: run.status };
}

describe("rcp-gen conform against a broken server", () => {
  it("over stdio: reports the answered notifications and the ignored gate, and exits 1", async () => {
    const { report: stdio, status } = await report(["--", ...BROKEN, "--stdio"]);
    expect(failing(stdio)).toEqual([...notificationFaults, gateFault]);
    const gate = stdio.checks.find((check) => check.id === gateFault)!;
    expect(gate.detail).toBe("retrieve with mode: sparse: a result");
    const answered = stdio.checks.find((check) => check.id === "notify.unanswered:open-method")!;
    expect(answered.detail).toContain('answered with {"jsonrpc":"2.0","id":null,"error":{"code":-32600');
    expect(stdio).toMatchObject({ declaredLevel: "L0", certifiedLevel: null, declarationHolds: false });
    expect(status).toBe(1);
  });

  describe("over HTTP", () => {
    let broken: HttpChild;
    beforeAll(async () => {
      broken = await startHttpChild([...BROKEN, "--port", "0"]);
    });
    afterAll(() => broken.stop());

    it("also reports the missing final SSE frame, and the stream it left without a response", async () => {
      const { report: http, status } = await report(["--http", broken.url]);
      expect(failing(http)).toEqual([
        ...notificationFaults,
        gateFault,
        "progress.well-formed:retrieve",
        "cancel:answered-once",
        "http.sse:one-final",
        "http.sse:nothing-after",
      ]);
      expect(http.checks.find((check) => check.id === "http.sse:one-final")!.detail).toBe(
        "0 response frames in 1 events",
      );
      expect(http.checks.find((check) => check.id === "progress.well-formed:retrieve")!.detail).toBe(
        "(stream): expected exactly one final response (§5.2, §9), found none",
      );
      // §5.2, §7.14: the cancelled call's stream ends without the response the fault dropped.
      expect(http.checks.find((check) => check.id === "cancel:answered-once")!.detail).toBe(
        "the stream ended with 0 responses: ",
      );
      expect(status).toBe(1);
    });
  });
});
