/**
 * mcp.ts: the MCP tools of the protocol (tools.ts), as data for `@rcp-gen/runtime/mcp`'s
 * bridge. It imports one type and nothing else, so loading it never loads the MCP SDK.
 */
import { targetCode } from "../plugin/targets.js";
import { mcpToolsOf } from "./tools.js";

export const mcpTarget = targetCode({
  generate({ model, newFile }) {
    const file = newFile("mcp.ts");
    const type = file.runtime("McpToolDescriptor");
    file.print(
      file.jsDoc(
        `One MCP tool per ${model.title} method an engine may advertise: serve them with \`serveMcpStdio\` or \`mcpHttpHandler\` from \`@rcp-gen/runtime/mcp\`.`,
      ),
    );
    file.print(`export const mcpTools: readonly ${type}[] = ${JSON.stringify(mcpToolsOf(model), null, 2)};`);
    return [file];
  },
});
