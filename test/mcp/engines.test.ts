/**
 * `rcp-gen mcp` in front of engines it does not start itself or did not write: the demo engine
 * over HTTP (`--http <url>`), and the RCP reference Python server over stdio (from
 * the reference implementations beside the repository; skipped with one line when they are absent,
 * and required in CI).
 */
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { DEMO_SERVE } from "../demo/demo-child.js";
import { announceSkip, PYTHON, reference, referenceDir, referencePresent } from "../interop/reference.js";
import { RCP_GEN, waitFor } from "./bridge-process.js";
import { recordInbound, type WireMessage } from "./mcp-clients.js";

interface Connected {
  client: Client;
  wire: WireMessage[];
}

async function mcpClientOf(args: string[]): Promise<Connected> {
  const client = new Client({ name: "rcp-gen-tests", version: "0.0.0" });
  const transport = new StdioClientTransport({ command: process.execPath, args: [RCP_GEN, "mcp", ...args] });
  await client.connect(transport);
  return { client, wire: recordInbound(transport) };
}

/** A retrieve with a progress token: the progress notifications on the wire before its result, and its hits. */
async function retrieveThrough({ client, wire }: Connected): Promise<{ progress: number; hits: unknown[] }> {
  const from = wire.length;
  const result = await client.callTool(
    { name: "retrieve", arguments: { query: "compost", k: 2 } },
    { onprogress: () => undefined },
  );
  expect(result.isError).toBeFalsy();
  const frames = wire.slice(from);
  const answeredAt = frames.findIndex((frame) => "result" in frame);
  const progress = frames.filter((frame, index) => frame.method === "notifications/progress" && index < answeredAt);
  return { progress: progress.length, hits: (result.structuredContent as { hits: unknown[] }).hits };
}

describe("rcp-gen mcp --http <url>, the demo engine over HTTP", () => {
  const engine = spawn(process.execPath, [DEMO_SERVE, "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
  let stdout = "";
  let connected: Connected;
  beforeAll(async () => {
    engine.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    await waitFor(() => stdout, "\n", 30_000);
    connected = await mcpClientOf(["--http", stdout.trim()]);
  }, 60_000);
  afterAll(async () => {
    await connected?.client.close();
    engine.kill();
  });

  it("lists the engine's tools and calls retrieve with progress", async () => {
    const { tools } = await connected.client.listTools();
    expect(tools.map((tool) => tool.name)).toContain("retrieve");
    const { progress, hits } = await retrieveThrough(connected);
    expect(progress).toBeGreaterThan(0);
    expect(hits).toHaveLength(2);
  });
});

describe.skipIf(!referencePresent)("rcp-gen mcp -- python3 example_server.py, the RCP reference server", () => {
  let connected: Connected;
  beforeAll(async () => {
    connected = await mcpClientOf(["--cwd", referenceDir, "--", PYTHON, reference.pythonExampleServer]);
  }, 60_000);
  afterAll(() => connected?.client.close());

  it("lists the tools of what it advertises and calls retrieve", async () => {
    const { tools } = await connected.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(["retrieve", "info"]));
    expect((await retrieveThrough(connected)).hits).toHaveLength(2);
  });
});
if (!referencePresent) announceSkip();
