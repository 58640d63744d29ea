/**
 * node.ts: the Node-only part of the generated client, `connectStdio`, which spawns the
 * server as a child process. Apart from client.ts so a browser bundle never reaches it.
 */
import type { Project } from "ts-morph";
import { addConnect } from "./emit-client.js";
import { GeneratedFile, type EmitSettings } from "./emit-file.js";

export function emitNode(project: Project, settings: EmitSettings): Promise<string> {
  const file = new GeneratedFile(project, "node.ts", settings);
  addConnect(
    file,
    "connectStdio",
    "stdioClientTransport",
    "StdioClientTransportOptions",
    "Starts the server as a child process, speaks NDJSON over its stdio (§5.1) and completes initialize.",
  );
  return file.render();
}
