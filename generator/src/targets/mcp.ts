/**
 * mcp.ts: the MCP tools of the protocol (tools.ts), as data for `@rcp-gen/runtime/mcp`'s
 * bridge. It imports from the runtime's protocol entry only, so loading it never loads the MCP SDK.
 *
 * Each schema the tools' `$defs` hold is written once, in a module-local `definitions`; the
 * tools' input and output schemas are written without `$defs` and completed from it on load
 * (`withDefinitions`), so that tools/list still hands MCP clients one complete document each.
 */
import { targetCode } from "./builtin.js";
import { literal, type LiteralValue } from "./shared/literal.js";
import { mcpToolsOf } from "./mcp-tools.js";

export const mcpTarget = targetCode({
  generate({ model, newFile }) {
    const file = newFile("mcp.ts");
    const type = file.runtime("McpToolDescriptor");
    // tools.ts names each schema model-wide (SchemaNames), so one name holds one schema in every tool.
    const definitions: Record<string, LiteralValue> = {};
    const withoutDefs = (schema: Record<string, unknown>): LiteralValue => {
      const { $defs, ...own } = schema as { $defs?: Record<string, LiteralValue> };
      Object.assign(definitions, $defs);
      return own;
    };
    const tools = mcpToolsOf(model).map((tool) => ({
      ...tool,
      inputSchema: withoutDefs(tool.inputSchema),
      outputSchema: withoutDefs(tool.outputSchema),
    }));
    file.print(file.jsDoc("The schemas the tools' `$defs` hold, each written once."));
    file.print("const definitions = ", literal(definitions), ";");
    file.print(
      file.jsDoc(
        `One MCP tool per ${model.title} method an engine may advertise: serve them with \`serveMcpStdio\` or \`mcpHttpHandler\` from \`@rcp-gen/runtime/mcp\`.`,
      ),
    );
    file.print(
      `export const mcpTools: readonly ${type}[] = ${file.runtime("withDefinitions")}(definitions, `,
      literal(tools),
      ");",
    );
    return [file];
  },
});
