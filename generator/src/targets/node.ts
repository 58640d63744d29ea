/**
 * node.ts: the Node-only part of the generated client, `connectStdio`, which spawns the
 * server as a child process. Apart from client.ts so a browser bundle never reaches it.
 */
import { targetCode } from "./builtin.js";
import { addConnect } from "./client.js";

export const nodeTarget = targetCode({
  generate({ newFile }) {
    const file = newFile("node.ts");
    addConnect(
      file,
      "connectStdio",
      "stdioClientTransport",
      "StdioClientTransportOptions",
      "Starts the server as a child process, speaks NDJSON over its stdio (§5.1) and completes initialize.",
    );
    return [file];
  },
});
