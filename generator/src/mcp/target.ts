/**
 * mcp.ts: the MCP tools of the protocol (tools.ts), as data for `@rcp-gen/runtime/mcp`'s
 * bridge. It imports one type and nothing else, so loading it never loads the MCP SDK.
 *
 * Each tool's input and output schema is one complete document (tools/list hands it to MCP
 * clients as it is), yet the schemas their `$defs` hold are written once, in a module-local
 * `definitions`: a tool's `$defs` names those it reaches.
 */
import type { McpToolDescriptor } from "@rcp-gen/runtime/codegen-protocol";
import { isDeepStrictEqual } from "node:util";
import { definePlugin } from "../plugin/plugin.js";
import { literal, Reference, type LiteralValue } from "../emit/literal.js";
import { mcpToolsOf } from "./tools.js";

const definitionsConstName = "definitions";

export const mcpTarget = definePlugin({
  name: "mcp",
  generate({ model, newFile }) {
    const file = newFile("mcp.ts");
    const type = file.runtime("McpToolDescriptor");
    const tools = mcpToolsOf(model);
    const definitions = sharedDefinitions(tools);
    file.print(
      file.jsDoc("The schemas the tools' `$defs` refer to, each written once; every tool's `$defs` names its own."),
    );
    file.print(`const ${definitionsConstName} = `, literal(definitions as LiteralValue), ";");
    file.print(
      file.jsDoc(
        `One MCP tool per ${model.title} method an engine may advertise: serve them with \`serveMcpStdio\` or \`mcpHttpHandler\` from \`@rcp-gen/runtime/mcp\`.`,
      ),
    );
    const written = tools.map((tool) => ({
      ...tool,
      inputSchema: referringTo(definitions, tool.inputSchema),
      outputSchema: referringTo(definitions, tool.outputSchema),
    }));
    file.print(`export const mcpTools: readonly ${type}[] = `, literal(written), ";");
    return [file];
  },
});

type Schema = McpToolDescriptor["inputSchema"];

/** The first schema each `$defs` name holds, over every tool's schemas. */
function sharedDefinitions(tools: readonly McpToolDescriptor[]): Record<string, unknown> {
  const definitions: Record<string, unknown> = {};
  for (const schema of tools.flatMap((tool) => [tool.inputSchema, tool.outputSchema]))
    for (const [name, definition] of Object.entries(defsOf(schema))) definitions[name] ??= definition;
  return definitions;
}

/**
 * `schema` with each of its `$defs` that is the shared one written as a reference to it; one
 * that differs (two schemas titled alike, numbered apart in each tool) stays written in place.
 */
function referringTo(definitions: Record<string, unknown>, schema: Schema): LiteralValue {
  const defs = Object.entries(defsOf(schema));
  if (defs.length === 0) return schema as LiteralValue;
  const named = defs.map(([name, definition]) => [
    name,
    isDeepStrictEqual(definitions[name], definition)
      ? new Reference(
          `${definitionsConstName}${/^[A-Za-z_$][\w$]*$/.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`}`,
        )
      : definition,
  ]);
  return { ...(schema as Record<string, LiteralValue>), $defs: Object.fromEntries(named) as LiteralValue };
}

function defsOf(schema: Schema): Record<string, unknown> {
  return (schema["$defs"] ?? {}) as Record<string, unknown>;
}
