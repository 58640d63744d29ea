/**
 * MCP's eight syslog levels onto RCP's five (§17.1: debug, info, notice, warning, error): MCP's
 * critical, alert and emergency are errors. A client's MCP threshold becomes the RCP
 * `_meta.logLevel` the engine gates on, and the bridge gates each RCP line again on it, so that
 * a client asking for warning never receives a debug line, whatever the engine sends.
 */
export const mcpLevels = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"] as const;
export type McpLevel = (typeof mcpLevels)[number];

const severity = new Map<string, number>(mcpLevels.map((level, index) => [level, index]));
const ERROR = severity.get("error")!;

export function isMcpLevel(value: unknown): value is McpLevel {
  return typeof value === "string" && severity.has(value);
}

/** The RCP level to ask the engine for, given the MCP threshold. */
export function rcpLevelFor(threshold: McpLevel): McpLevel {
  return severity.get(threshold)! > ERROR ? "error" : threshold;
}

/** Whether an RCP line at `rcpLevel` reaches a client whose MCP threshold is `threshold`; an unknown level is read as info. */
export function passes(rcpLevel: string, threshold: McpLevel): boolean {
  return (severity.get(rcpLevel) ?? severity.get("info")!) >= severity.get(rcpLevelFor(threshold))!;
}
