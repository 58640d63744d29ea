/**
 * What the `mcp` target of rcp-gen generates per RCP method (mcp.ts) and the MCP bridge serves:
 * an MCP tool's listing and the RCP call behind it. Plain data, completed by `withDefinitions`
 * and importing nothing, so that the generated file never loads the MCP SDK (an optional peer of
 * `@rcp-gen/runtime/mcp`).
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

const DEFS_REF = "#/$defs/";

/**
 * `tools` with each input and output schema made one complete document: given the `$defs` its
 * `#/$defs/<name>` references reach, from `definitions` (generated mcp.ts writes each schema its
 * tools share once there).
 */
export function withDefinitions(
  definitions: { readonly [name: string]: unknown },
  tools: readonly McpToolDescriptor[],
): McpToolDescriptor[] {
  const complete = (schema: McpToolDescriptor["inputSchema"]) => {
    const reached = new Set<string>();
    const visit = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(visit);
      else if (typeof value === "object" && value !== null)
        for (const [keyword, item] of Object.entries(value)) {
          const name =
            keyword === "$ref" && typeof item === "string" && item.startsWith(DEFS_REF)
              ? item.slice(DEFS_REF.length)
              : undefined;
          if (name === undefined) visit(item);
          else if (!reached.has(name)) {
            reached.add(name);
            visit(definitions[name]);
          }
        }
    };
    visit(schema);
    if (reached.size === 0) return schema;
    return { ...schema, $defs: Object.fromEntries([...reached].sort().map((name) => [name, definitions[name]])) };
  };
  return tools.map((tool) => ({
    ...tool,
    inputSchema: complete(tool.inputSchema),
    outputSchema: complete(tool.outputSchema),
  }));
}
