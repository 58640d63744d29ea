/**
 * `npm start`: calls the engine as a client would, over stdio (the server as a child process)
 * and then over HTTP with Server-Sent Events, printing each progress frame as it arrives and
 * then the result, and calls the vendor method x-example/lookup.
 */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { connectHttp, connectStdio, type RcpClient } from "./generated/index.js";

const serverScript = fileURLToPath(new URL("./server.js", import.meta.url));
const clientInfo = { name: "my-rcp-client", version: "0.1.0" };
const query = "compost for tomato seedlings";

async function ask(client: RcpClient, transport: string): Promise<void> {
  console.log(`== ${transport}: retrieve "${query}"`);
  for await (const event of client.retrieveStream({ query, k: 3 }, { timeout: 10_000 })) {
    if (event.type === "progress") console.log(`  progress ${event.progress} ${event.stage}: ${event.message}`);
    else console.log(`  result: ${event.result.hits.map((hit) => hit.id).join(", ")}`);
  }
  const document = await client.xExampleLookup({ id: "doc-1" });
  console.log(`  x-example/lookup ${document.id}: ${document.text}`);
}

/** The HTTP server as a child process, once it has printed its URL (its first line of stdout). */
async function startHttpServer(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, [serverScript, "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
  for await (const url of createInterface({ input: child.stdout })) return { url, stop: () => child.kill() };
  throw new Error(`the server exited (code ${child.exitCode}) before printing its URL`);
}

const overStdio = await connectStdio({
  clientInfo,
  transport: { command: process.execPath, args: [serverScript, "--stdio"] },
});
try {
  await ask(overStdio, "stdio");
} finally {
  await overStdio.close();
}

const httpServer = await startHttpServer();
try {
  const overHttp = await connectHttp({ clientInfo, transport: { url: httpServer.url } });
  try {
    await ask(overHttp, "HTTP/SSE");
  } finally {
    await overHttp.close();
  }
} finally {
  httpServer.stop();
}
