/**
 * Generated code states each fact of the schema once: methods.ts writes a method's call members
 * in its call descriptor only, and the whole protocol's method descriptors are built from them;
 * mcp.ts writes each schema the tools' `$defs` hold once, while each tool's schema stays one
 * complete document (test/mcp/tools.test.ts checks that, and what MCP clients receive).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { mcpTools } from "../../generated/mcp.js";
import * as methods from "../../generated/methods.js";
import { clientProtocol, protocol } from "../../generated/methods.js";
import type { CallDescriptor, MethodDescriptor } from "@rcp-gen/runtime";
import { repoRoot } from "./run-cli.js";

const occurrences = (haystack: string, needle: string) => haystack.split(needle).length - 1;

describe("methods.ts", () => {
  it("writes each method's wire name once, in its call descriptor", () => {
    const source = readFileSync(join(repoRoot, "generated", "methods.ts"), "utf8");
    for (const method of Object.keys(protocol.methods))
      expect(occurrences(source, `method: ${JSON.stringify(method)},`), method).toBe(1);
  });

  it("builds each method of the protocol from its call descriptor: the same members, validators included", () => {
    const exported: unknown[] = Object.values(methods);
    const calls = [
      ...exported.filter(
        (value): value is CallDescriptor => typeof value === "object" && value !== null && "method" in value,
      ),
      ...Object.values(clientProtocol.methods as Record<string, CallDescriptor>),
    ];
    const whole = protocol.methods as Record<string, MethodDescriptor>;
    expect(new Set(calls.map((call) => call.method))).toEqual(new Set(Object.keys(whole)));
    for (const call of calls) {
      for (const [key, value] of Object.entries(call))
        expect(whole[call.method]![key as keyof CallDescriptor], key).toBe(value);
      expect(whole[call.method]!.params, call.method).toBeTypeOf("function");
    }
  });
});

describe("mcp.ts", () => {
  it("writes each schema the tools' $defs hold once: every tool holding it holds the same one", () => {
    const holders = new Map<string, unknown[]>();
    for (const schema of mcpTools.flatMap((tool) => [tool.inputSchema, tool.outputSchema]))
      for (const [name, definition] of Object.entries((schema.$defs ?? {}) as Record<string, unknown>))
        holders.set(name, [...(holders.get(name) ?? []), definition]);
    expect(holders.get("Meta")!.length).toBeGreaterThan(1);
    for (const [name, definitions] of holders)
      for (const definition of definitions) expect(definition, name).toBe(definitions[0]);
  });
});
