/**
 * What every MCP client must see through the bridge in front of the demo engine, whatever the
 * client, era and transport: the advertised tools, retrieve with progress before its result,
 * log lines only at or above the level asked for (none when none was, as the request-scoped
 * streaming rules say), an RCP error as an isError result, -32602 for an unknown tool, and a
 * cancelled call aborting the engine's handler.
 */
import { expect, it } from "vitest";
import { ABORTED_LINE, DEMO_TOOLS, SLOW_META, UNKNOWN_FIELD_FILTER, waitFor } from "./bridge-process.js";
import type { McpTestClient } from "./mcp-clients.js";

const QUERY = { query: "greenhouse compost", k: 2 };

export function bridgeScenarios(client: () => McpTestClient, stderr: () => string): void {
  it("lists one tool per advertised method, schemas bundled, annotations from x-rcp", async () => {
    const tools = await client().listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(DEMO_TOOLS);
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    const retrieve = byName.get("retrieve")!;
    expect(retrieve.description).toMatch(/§7\.7/);
    expect(retrieve.inputSchema.properties).not.toHaveProperty("_meta");
    expect(retrieve.inputSchema.required).toEqual(["query", "k"]);
    expect(JSON.stringify(retrieve.inputSchema)).not.toMatch(/"\$ref":"(?!#\/\$defs\/)/);
    expect(retrieve.outputSchema?.properties).toHaveProperty("hits");
    expect(retrieve.annotations).toEqual({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
    expect(byName.get("index_delete")!.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
    });
  });

  it("calls retrieve: progress notifications first, then the result as structuredContent and readable text", async () => {
    const from = client().wire.length;
    const result = await client().callTool("retrieve", QUERY, { onprogress: () => undefined });
    const frames = client().wire.slice(from);
    const answeredAt = frames.findIndex((frame) => "result" in frame);
    const progress = frames.filter((frame, index) => frame.method === "notifications/progress" && index < answeredAt);
    expect(progress.length).toBeGreaterThan(1);
    expect(frames.filter((frame) => frame.method === "notifications/progress")).toHaveLength(progress.length);
    expect(progress[0]!.params).toMatchObject({ total: 1 });
    expect(progress[0]!.params!["message"]).toMatch(/^recall: /);
    const values = progress.map((frame) => frame.params!["progress"] as number);
    expect(values).toEqual([...values].sort((a, b) => a - b));
    expect(new Set(values).size).toBe(values.length);
    const hits = (result.structuredContent as { hits: Array<{ id: string; score: number }> }).hits;
    expect(hits).toHaveLength(2);
    const text = (result.content as Array<{ type: string; text: string }>)[0]!.text;
    expect(text).toContain(`id: ${hits[0]!.id}  score: ${hits[0]!.score}`);
    expect(text).toMatch(/citation: "[^"]+", demo-corpus/);
  });

  it("forwards log lines only at or above the level asked for, and none when none was asked for", async () => {
    const logsAt = async (level?: "warning" | "info") => {
      client().logs.length = 0;
      await client().callTool("retrieve", QUERY, level === undefined ? {} : { level });
      return [...client().logs];
    };
    expect(await logsAt()).toEqual([]);
    expect(await logsAt("warning")).toEqual([]);
    const info = await logsAt("info");
    expect(info.length).toBeGreaterThan(0);
    expect(info).toContainEqual(expect.objectContaining({ level: "info", logger: "demo-engine" }));
  });

  it("answers an RCP error with an isError result carrying its code, message and data", async () => {
    const error = rcpErrorOf(await client().callTool("retrieve", { ...QUERY, filter: UNKNOWN_FIELD_FILTER }));
    expect(error.code).toBe(-32602);
    expect(error.data?.field).toMatch(/^filter/);
  });

  it("answers arguments that break the input schema with the engine's -32602 naming the argument", async () => {
    const missing = rcpErrorOf(await client().callTool("retrieve", { query: QUERY.query }));
    expect(missing).toMatchObject({ code: -32602, data: { field: "k" } });
    const mistyped = rcpErrorOf(await client().callTool("retrieve", { ...QUERY, k: "two" }));
    expect(mistyped).toMatchObject({ code: -32602, data: { field: "k" } });
  });

  it("answers an unknown tool (initialize is no tool) with -32602", async () => {
    await expect(client().callTool("initialize", {})).rejects.toSatisfy(
      (error) => (error as { code?: unknown }).code === -32602,
    );
  });

  it("cancels: aborting the MCP call aborts the engine's handler", async () => {
    const abortedBefore = stderr().split(ABORTED_LINE).length;
    const controller = new AbortController();
    const call = client().callTool("retrieve", QUERY, { meta: SLOW_META, signal: controller.signal });
    setTimeout(() => controller.abort("the user clicked stop"), 300);
    await expect(call).rejects.toThrow();
    // The text after the lines already there, from the last of them on.
    await waitFor(
      () =>
        stderr()
          .split(ABORTED_LINE)
          .slice(abortedBefore - 1)
          .join(ABORTED_LINE),
      ABORTED_LINE,
    );
  });
}

interface WireError {
  code: number;
  message: string;
  data?: { field?: string };
}

/** The RCP error an isError tool result carries: its first line, then `{"error": ...}`. */
function rcpErrorOf(result: { isError?: boolean; content?: unknown }): WireError {
  expect(result.isError).toBe(true);
  const text = (result.content as Array<{ text: string }>)[0]!.text;
  const { error } = JSON.parse(text.slice(text.indexOf("\n") + 1)) as { error: WireError };
  expect(text.split("\n")[0]).toBe(`RCP error ${error.code}: ${error.message}`);
  return error;
}
