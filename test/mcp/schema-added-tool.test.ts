/**
 * Adding a method to the schema adds its MCP tool, with no code change: a vendor method
 * `x-acme/shout` goes into a copy of schema/; the `mcp` target writes its tool into mcp.ts, and
 * the same tools, built live from that folder as `rcp-gen mcp` builds them, are served by the
 * bridge over an in-process server of that folder's protocol and called by the MCP SDK client.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { BaseClient, createMemoryTransportPair, createServerRuntime } from "@rcp-gen/runtime";
import { McpBridge } from "@rcp-gen/runtime/mcp";
import { conformProtocol } from "../../generator/src/conform/protocol.js";
import { loadSchemaFolder } from "../../generator/src/load/loader.js";
import { mcpToolsOf } from "../../generator/src/targets/mcp-tools.js";
import { buildModel } from "../../generator/src/model/model.js";
import { schemaWithShout } from "../fixtures/shout-method.js";
import { runCli } from "../generator/run-cli.js";

const project = mkdtempSync(join(tmpdir(), "mcp-added-tool-"));
afterAll(() => rmSync(project, { recursive: true, force: true }));

it("lists and calls a tool for a method added to the schema alone", async () => {
  const schema = schemaWithShout(join(project, "schema"));

  const generated = runCli(["--schema", schema, "--out", join(project, "out"), "--targets", "mcp", "--quiet"]);
  expect(generated.stderr).toBe("");
  const mcpTs = readFileSync(join(project, "out/mcp.ts"), "utf8");
  expect(mcpTs).toContain('name: "x-acme_shout"');
  expect(mcpTs).toContain('method: "x-acme/shout"');

  const folder = loadSchemaFolder(schema);
  const protocol = conformProtocol(folder);
  const server = createServerRuntime(protocol, {
    info: { name: "acme", version: "1.0.0" },
    capabilities: { "x-acme": {} },
    conformance: "L0",
    handlers: { "x-acme/shout": (params: { text: string }) => ({ shout: params.text.toUpperCase() }) },
  });
  const pair = createMemoryTransportPair();
  server.connect(pair.server);
  const engine = new BaseClient({ protocol, transport: pair.client, clientInfo: { name: "bridge", version: "0" } });
  await engine.connect();
  const bridge = new McpBridge({ engine, tools: mcpToolsOf(buildModel(folder)) });

  const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
  await bridge.newServer().connect(serverEnd);
  const client = new Client({ name: "rcp-gen-tests", version: "0.0.0" });
  await client.connect(clientEnd);
  const { tools } = await client.listTools();
  // Only the methods whose capability the server advertised: info, ungated, and the new one.
  expect(tools.map((tool) => tool.name).sort()).toEqual(["info", "x-acme_shout"]);
  const shout = tools.find((tool) => tool.name === "x-acme_shout")!;
  expect(shout.description).toBe("Upper-cases the text and keeps it in the shout log.");
  expect(shout.annotations).toEqual({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
  const result = await client.callTool({ name: "x-acme_shout", arguments: { text: "hello" } });
  expect(result.structuredContent).toEqual({ shout: "HELLO" });
  await client.close();
  await engine.close();
});
