/**
 * A wrong --http base (the server's root, where the RCP endpoint is at /rcp, §5.2) is told once,
 * the same way and with the same exit code (2) by conform, mcp and inspect, naming the base that
 * answers; a base under which nothing answers gets the hint about what --http takes.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startHttpChild, type HttpChild } from "../conform/conform-cli.js";
import { DEMO_SERVE } from "../demo/demo-child.js";
import { runCliAsync } from "./run-cli.js";

let engine: HttpChild;
beforeAll(async () => {
  engine = await startHttpChild([process.execPath, DEMO_SERVE, "--port", "0"]);
});
afterAll(() => engine.stop());

it.each(["conform", "mcp", "inspect"])("%s --http <server root> exits 2 naming <root>/rcp", async (command) => {
  expect(engine.url).toMatch(/\/rcp$/);
  const root = new URL(engine.url).origin;
  const result = await runCliAsync([command, "--http", root]);
  expect({ status: result.status, stdout: result.stdout, stderr: result.stderr.split("\n") }).toEqual({
    status: 2,
    stdout: "",
    stderr: [
      `rcp-gen: ${root} is not an RCP endpoint: POST ${root}/ping answered HTTP 404`,
      `hint: did you mean --http ${root}/rcp? It answers as an RCP endpoint`,
      "",
    ],
  });
});

it("a path under the root is pointed at the root's /rcp", async () => {
  const root = new URL(engine.url).origin;
  const result = await runCliAsync(["mcp", "--http", `${root}/api/v1`]);
  expect(result.status).toBe(2);
  expect(result.stderr).toContain(`hint: did you mean --http ${root}/rcp? It answers as an RCP endpoint\n`);
});

it("a server with no RCP endpoint at all gets what --http takes", async () => {
  const server = createServer((_request, response) => response.writeHead(404).end("not found"));
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const result = await runCliAsync(["inspect", "--http", base]);
    expect({ status: result.status, stderr: result.stderr.split("\n") }).toEqual({
      status: 2,
      stderr: [
        `rcp-gen: ${base} is not an RCP endpoint: POST ${base}/ping answered HTTP 404`,
        "hint: --http takes the engine's RCP base URL, the path its POST <base>/<method> requests go to (often /rcp, §5.2)",
        "",
      ],
    });
  } finally {
    server.close();
  }
});
