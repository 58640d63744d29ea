/** Smaller defects an adversarial run found: ids past 2^53 (§4.1), `serve --help`. */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { DEMO_SERVE } from "../demo/demo-child.js";
import { inProcessFixtureServer } from "../fixtures/server/in-process-server.js";

describe("§4.1 ids an answer could not echo exactly", () => {
  const server = inProcessFixtureServer();
  const post = async (body: string): Promise<unknown> =>
    (
      await server.fetch(
        new Request("http://localhost/rcp/ping", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body,
        }),
      )
    ).json();

  it.each(["9007199254740993", "-9007199254740993", "1e300"])("numeric id %s is -32600 with id null", async (id) => {
    const answer = await post(`{"jsonrpc":"2.0","id":${id},"method":"ping"}`);
    expect(answer).toMatchObject({ id: null, error: { code: -32600 } });
  });

  it("the largest safe integers and fractions come back as sent", async () => {
    for (const id of [Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 1.5]) {
      expect(await post(`{"jsonrpc":"2.0","id":${id},"method":"ping"}`)).toEqual({ jsonrpc: "2.0", id, result: {} });
    }
  });
});

describe("serve's command line", () => {
  it("--help lists the flags and exits 0; an unknown flag is a usage error, never a stack trace", () => {
    const help = spawnSync(process.execPath, [DEMO_SERVE, "--help"], { encoding: "utf8" });
    expect(help.status).toBe(0);
    for (const flag of ["--stdio", "--port", "--federate", "--expose-endpoints", "--help"])
      expect(help.stdout).toContain(flag);
    const unknown = spawnSync(process.execPath, [DEMO_SERVE, "--bogus"], { encoding: "utf8" });
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/^serve: Unknown option '--bogus'/);
    expect(unknown.stderr).not.toMatch(/\n\s+at /);
  });
});
