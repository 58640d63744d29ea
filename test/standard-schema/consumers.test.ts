/**
 * Generated validators as Standard Schema v1, taken by real consumers: a Hono route validated by
 * `@hono/standard-validator` over a socket, and an MCP SDK v2 tool whose input schema is the
 * generated params validator, called by the SDK's own client. The issues say what a -32602
 * says: the same message, the same path.
 */
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serve, type ServerType } from "@hono/node-server";
import { sValidator } from "@hono/standard-validator";
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { McpServer, type StandardSchemaWithJSON } from "@modelcontextprotocol/server";
import { Hono } from "hono";
import { mcpTools } from "../../generated/mcp.js";
import type { RetrieveParams } from "../../generated/types.js";
import {
  indexDeleteParams,
  progressNotificationParams,
  retrieveParams,
  retrieveResult,
} from "../../generated/validators.js";

describe("~standard on generated validators", () => {
  it("says version 1 and vendor rcp-gen, and answers { value } for a valid value", () => {
    const params = { query: "compost", k: 3 };
    expect(retrieveParams["~standard"]).toMatchObject({ version: 1, vendor: "rcp-gen" });
    expect(retrieveParams["~standard"].validate(params)).toEqual({ value: params });
  });

  it("words a missing required property as the server's -32602 does: its name in the path", () => {
    expect(retrieveParams["~standard"].validate({ k: 3 })).toEqual({
      issues: [{ message: "must have required property 'query'", path: ["query"] }],
    });
  });

  it("gives array indexes as numbers and object keys as strings", () => {
    const result = retrieveResult["~standard"].validate({
      hits: [
        { id: "a", score: 1 },
        { id: "b", score: "high" },
      ],
    });
    expect(result.issues).toEqual([{ message: "must be number", path: ["hits", 1, "score"] }]);
  });

  it("covers notification params and the other methods' validators", () => {
    expect(progressNotificationParams["~standard"].validate({ progress: 0.5 }).issues?.[0]?.path).toEqual([
      "progressToken",
    ]);
    expect(indexDeleteParams["~standard"].validate({ ids: "a" }).issues?.[0]).toEqual({
      message: "must be array",
      path: ["ids"],
    });
  });
});

describe("a Hono route validated by @hono/standard-validator with retrieveParams", () => {
  let server: ServerType;
  let base: string;
  beforeAll(async () => {
    const app = new Hono().post("/search", sValidator("json", retrieveParams), (c) => {
      const params: RetrieveParams = c.req.valid("json");
      return c.json({ searched: params.query, k: params.k });
    });
    server = await new Promise<ServerType>((resolve) => {
      const started = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(started));
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const post = (body: unknown) =>
    fetch(`${base}/search`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });

  it("hands valid params to the handler", async () => {
    const response = await post({ query: "compost", k: 2 });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ searched: "compost", k: 2 });
  });

  it("answers bad params with 400 and the issue's path", async () => {
    const response = await post({ query: "compost", k: "two" });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { success: boolean; error: Array<{ message: string; path: unknown[] }> };
    expect(body.success).toBe(false);
    expect(body.error).toEqual([{ message: "must be integer", path: ["k"] }]);
  });
});

describe("an MCP SDK v2 tool whose input schema is retrieveParams", () => {
  // registerTool takes a StandardSchemaWithJSON: Standard Schema's validate plus Standard JSON
  // Schema's jsonSchema (for tools/list). The generated validator brings the first, mcp.ts the second.
  const tool = mcpTools.find((candidate) => candidate.method === "retrieve")!;
  const inputSchema: StandardSchemaWithJSON<RetrieveParams> = {
    "~standard": {
      ...retrieveParams["~standard"],
      jsonSchema: { input: () => ({ ...tool.inputSchema }), output: () => ({ ...tool.inputSchema }) },
    },
  };
  let client: Client;
  const received: RetrieveParams[] = [];
  beforeAll(async () => {
    const server = new McpServer({ name: "standard-schema-tool", version: "1.0.0" });
    server.registerTool("retrieve", { description: tool.description, inputSchema }, (params) => {
      received.push(params);
      return { content: [{ type: "text", text: `searched ${JSON.stringify(params.query)}` }] };
    });
    const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
    await server.connect(serverEnd);
    client = new Client({ name: "rcp-gen-tests", version: "0.0.0" });
    await client.connect(clientEnd);
  });
  afterAll(() => client?.close());

  it("lists the tool with the params' JSON Schema", async () => {
    const { tools } = await client.listTools();
    expect(tools.find((listed) => listed.name === "retrieve")?.inputSchema.required).toContain("query");
  });

  it("calls the handler with arguments the validator accepted", async () => {
    const result = await client.callTool({ name: "retrieve", arguments: { query: "compost", k: 2 } });
    expect(result.isError).toBeFalsy();
    expect(received.at(-1)).toEqual({ query: "compost", k: 2 });
  });

  it("is refused at tools/list without the JSON Schema half: the SDK names what it lacks", async () => {
    const bare = new McpServer({ name: "bare-standard-schema", version: "1.0.0" });
    // @ts-expect-error registerTool's types ask for ~standard.jsonSchema as well
    bare.registerTool("retrieve", { inputSchema: retrieveParams }, () => ({ content: [] }));
    const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
    await bare.connect(serverEnd);
    const bareClient = new Client({ name: "rcp-gen-tests", version: "0.0.0" });
    await bareClient.connect(clientEnd);
    await expect(bareClient.listTools()).rejects.toThrow("does not implement StandardJSONSchemaV1");
    await bareClient.close();
  });

  it("refuses arguments the validator refused, with its message and path", async () => {
    const before = received.length;
    const outcome = await client.callTool({ name: "retrieve", arguments: { k: 2 } }).then(
      (result) => JSON.stringify(result),
      (error: Error) => error.message,
    );
    expect(outcome).toContain("must have required property 'query'");
    expect(outcome).toContain("query");
    expect(received.length).toBe(before);
  });
});
