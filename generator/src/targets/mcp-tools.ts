/**
 * The MCP tools an RCP protocol offers: one per method a client calls (the lifecycle's
 * initialize, ping and shutdown are the bridge's own business, notifications are not calls),
 * named, described, schema'd and annotated from the schema alone, so that a method added to the
 * schema is a tool with no code change. The `mcp` target writes them into mcp.ts; `rcp-gen mcp`
 * builds them live from a schema folder.
 */
import type { McpToolDescriptor } from "@rcp-gen/runtime/codegen-protocol";
import { isJsonObject } from "../load/json-pointer.js";
import type { RcpMethod, RcpModel, Shape } from "../model/model.js";
import { ReferencedSchemas } from "./shared/referenced-schemas.js";
import { dereference } from "./shared/schema-names.js";

/** Lifecycle methods the bridge runs itself, never offered as tools. */
const bridgeOwnedLifecycle = new Set(["initialize", "ping", "shutdown"]);

export function mcpToolsOf(model: RcpModel): McpToolDescriptor[] {
  return model.methods
    .filter((method) => method.lifecycle === undefined || !bridgeOwnedLifecycle.has(method.lifecycle))
    .map((method) => mcpTool(model, method));
}

/** `index/add` -> `index_add`: MCP tool names match `^[A-Za-z0-9._-]{1,128}$`, RCP wire names never hold `_`. */
export function mcpToolName(method: string): string {
  return method.replaceAll("/", "_");
}

function mcpTool(model: RcpModel, method: RcpMethod): McpToolDescriptor {
  const params = dereference(model, method.params).schema;
  const paramsDescription = isJsonObject(params) ? params.description : undefined;
  const description = [method.description, paramsDescription].filter((text) => text !== undefined).join(" ");
  return {
    name: mcpToolName(method.method),
    method: method.method,
    ...(method.title !== undefined && method.title !== method.method ? { title: method.title } : {}),
    description: description === "" ? method.method : description,
    capability: method.capability,
    ...(method.requires === undefined ? {} : { requires: method.requires }),
    streaming: method.streaming,
    inputSchema: bundled(model, method.params, { dropMeta: true }),
    outputSchema: bundled(model, method.result),
    annotations: {
      readOnlyHint: !method.writes,
      destructiveHint: method.destructive,
      idempotentHint: method.idempotent === true,
    },
  };
}

/** The schema at `shape` as one document, what it refers to under `$defs` by name; `_meta` left out of params. */
function bundled(model: RcpModel, shape: Shape, { dropMeta = false } = {}): Record<string, unknown> {
  const schemas = new ReferencedSchemas(model, "#/$defs/");
  const { at, schema } = dereference(model, shape);
  const root = schemas.convert(at.file, dropMeta ? withoutMeta(schema) : schema) as Record<string, unknown>;
  const defs = schemas.all();
  return { type: "object", ...root, ...(Object.keys(defs).length === 0 ? {} : { $defs: defs }) };
}

/** `_meta` is the bridge's to fill (progress token, log level), never a tool argument. */
function withoutMeta(schema: unknown): unknown {
  if (!isJsonObject(schema) || !isJsonObject(schema.properties)) return schema;
  const { _meta: _sideBand, ...properties } = schema.properties;
  const required = Array.isArray(schema.required) ? schema.required.filter((name) => name !== "_meta") : undefined;
  return { ...schema, properties, ...(required === undefined ? {} : { required }) };
}
