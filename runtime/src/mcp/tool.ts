/**
 * What the `mcp` target of rcp-gen generates per RCP method (mcp.ts) and the MCP bridge serves:
 * an MCP tool's listing and the RCP call behind it. Plain data, so that the generated file
 * loads nothing (the MCP SDK stays an optional peer of `@rcp-gen/runtime/mcp`).
 */
export interface McpToolDescriptor {
  /** The MCP tool name: the wire name with `/` turned into `_` (`index_add`). */
  readonly name: string;
  /** The RCP method it calls (`index/add`). */
  readonly method: string;
  readonly title?: string;
  readonly description: string;
  /** The capability key the engine must advertise for the tool to be listed; null when ungated. */
  readonly capability: string | null;
  /** A capability path that must also be advertised (`index.writable`). */
  readonly requires?: string;
  /** Whether the method reports progress (§9). */
  readonly streaming: boolean;
  /** The params schema without `_meta`, one JSON Schema 2020-12 document (its references in `$defs`). */
  readonly inputSchema: { readonly [keyword: string]: unknown };
  /** The result schema, one document likewise. */
  readonly outputSchema: { readonly [keyword: string]: unknown };
  /** From the schema's `x-rcp` `writes`, `destructive` and `idempotent`. */
  readonly annotations: {
    readonly readOnlyHint: boolean;
    readonly destructiveHint: boolean;
    readonly idempotentHint: boolean;
  };
}
