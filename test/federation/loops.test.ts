/**
 * Loop detection (§16.2) between real processes: a federator whose registry points back at
 * itself, and the hop budget a request carries. Also the federator over stdio, as
 * `npm run -s serve -- --federate rcp.json --stdio` runs it.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { connectHttp, connectStdio, type RcpClient } from "../../generated/index.js";
import { SERVE, freePort, registryFolder, startEngine, startHttpProcess, type ServerProcess } from "./processes.js";

const clientInfo = { name: "federation-tests", version: "0.0.0" };
const registries = registryFolder();
let engine: ServerProcess;
let federator: ServerProcess;
let client: RcpClient;
let registry: string;

beforeAll(async () => {
  engine = await startEngine();
  const port = await freePort();
  registry = registries.write("loop.json", {
    engines: [
      { id: "docs", transport: "http", url: engine.url },
      { id: "itself", transport: "http", url: `http://127.0.0.1:${port}/rcp` },
    ],
  });
  federator = await startHttpProcess(SERVE, ["--federate", registry, "--port", String(port), "--identity", "loop-gw"]);
  client = await connectHttp({ clientInfo, transport: { url: federator.url } });
});

afterAll(async () => {
  await client?.close();
  await Promise.all([federator?.stop(), engine?.stop()]);
  registries.remove();
});

it("skips a registry entry that leads back to itself and notes the cycle, answering from the others", async () => {
  // "itself" was not listening when the federator started: it is connected on first use.
  expect(federator.stderr()).toMatch(/engine itself did not connect .*; it is tried again on each request/);
  const result = await client.retrieve({ query: "galaxy telescope", k: 4 });
  expect(result.hits).toHaveLength(4);
  expect(result.hits.every((hit) => (hit.meta as { engine: string }).engine === "docs")).toBe(true);
  expect(result._meta?.degraded).toEqual(["itself"]);
  expect(result.usage?.notes).toContainEqual(
    expect.stringMatching(
      /^engine itself: failed after \d+ ms \(-32010 Backend unavailable: cycle: loop-gw is already in _meta\.federation\.path \[loop-gw\]; not forwarded \(§16\.2\)\)$/,
    ),
  );
});

it("refuses to forward a request whose path already holds it, or whose hop budget is spent (§16.2)", async () => {
  await expect(
    client.retrieve({ query: "galaxy", k: 2, _meta: { federation: { depth: 2, path: ["edge", "loop-gw"] } } }),
  ).rejects.toMatchObject({ code: -32010, data: { reason: "cycle", path: ["edge", "loop-gw"] } });
  await expect(
    client.retrieve({ query: "galaxy", k: 2, _meta: { federation: { depth: 0, path: ["edge"] } } }),
  ).rejects.toMatchObject({ code: -32010, data: { reason: "hopBudget" } });
  const forwarded = await client.retrieve({
    query: "galaxy",
    k: 2,
    _meta: { federation: { depth: 1, path: ["edge"] } },
  });
  expect(forwarded.hits).toHaveLength(2);
  const received = engine
    .events()
    .filter((event) => event.event === "retrieve")
    .at(-1)!.meta as { federation: unknown };
  expect(received.federation).toEqual({ depth: 0, path: ["edge", "loop-gw"] });
});

it("serves over stdio too, stdout carrying protocol frames only (§5.1)", async () => {
  const stdio = await connectStdio({
    clientInfo,
    transport: { command: process.execPath, args: [SERVE, "--federate", registry, "--stdio"], stderr: "pipe" },
  });
  try {
    expect(stdio.supports("catalog")).toBe(true);
    const result = await stdio.retrieve({ query: "galaxy telescope", k: 3 });
    expect(result.hits.map((hit) => (hit.meta as { engine: string }).engine)).toEqual(["docs", "docs", "docs"]);
  } finally {
    await stdio.close();
  }
});
