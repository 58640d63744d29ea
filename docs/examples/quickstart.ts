/**
 * `npm start`: streams one retrieval from the demo engine to the generated client, first
 * over stdio (the engine as a child process), then over HTTP + Server-Sent Events (the
 * engine as an HTTP child on a free port), printing every progress frame as it arrives.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { connectHttp, connectStdio, type RcpClient, type RetrieveParams } from "../../generated/index.js";

const SERVE_SCRIPT = fileURLToPath(new URL("./demo-engine/serve.js", import.meta.url));
const CLIENT_INFO = { name: "rcp-quickstart", version: "0.1.0" };

const REQUEST: RetrieveParams = {
  query: "tomato seedlings in a raised bed with compost",
  k: 5,
  mode: "hybrid",
  candidateK: 40,
  fusion: { method: "rrf" },
  rerank: { method: "cross-encoder", topN: 20 },
  mmr: { lambda: 0.7 },
  filter: { field: "lang", op: "eq", value: "en" },
};

async function streamRetrieve(client: RcpClient, transport: string): Promise<void> {
  console.log(`\n== retrieve over ${transport}: ${JSON.stringify(REQUEST.query)}`);
  for await (const event of client.retrieveStream(REQUEST, { timeout: 10_000 })) {
    if (event.type === "progress") {
      const ids = (event.partial?.hits ?? []).map((hit) => hit.id).join(", ");
      const percent = `${Math.round(event.progress * 100)}%`.padStart(4);
      console.log(`  progress ${percent}  ${(event.stage ?? "").padEnd(9)} partial=[${ids}]`);
    } else {
      const { hits, usage, indexVersion } = event.result;
      console.log(`  result: ${hits.length} hits from snapshot ${indexVersion}, usage ${JSON.stringify(usage)}`);
      for (const [rank, hit] of hits.entries()) {
        console.log(
          `   ${rank + 1}. ${String(hit.id).padEnd(8)} ${hit.score.toFixed(3)}  ${hit.text?.slice(0, 70) ?? ""}`,
        );
      }
    }
  }
}

async function overStdio(): Promise<void> {
  const client = await connectStdio({
    clientInfo: CLIENT_INFO,
    transport: { command: process.execPath, args: [SERVE_SCRIPT, "--stdio"], stderr: "inherit" },
  });
  try {
    console.log(`connected to ${client.serverInfo?.name} (declares ${client.conformance}) over stdio`);
    await streamRetrieve(client, "stdio");
  } finally {
    await client.close();
  }
}

async function overHttp(): Promise<void> {
  const child = spawn(process.execPath, [SERVE_SCRIPT, "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
  try {
    const url = await firstLine(child);
    const client = await connectHttp({ clientInfo: CLIENT_INFO, transport: { url } });
    try {
      console.log(`\nconnected to ${client.serverInfo?.name} at ${url}`);
      await streamRetrieve(client, "HTTP/SSE");
    } finally {
      await client.close();
    }
  } finally {
    child.kill();
  }
}

/** The HTTP engine prints its base URL as its first stdout line. */
async function firstLine(child: ChildProcess): Promise<string> {
  const lines = createInterface({ input: child.stdout! });
  const exited = once(child, "exit").then(([code]) => {
    throw new Error(`the HTTP engine exited with code ${code} before listening`);
  });
  try {
    const [line] = (await Promise.race([once(lines, "line"), exited])) as [string];
    return line.trim();
  } finally {
    lines.close();
  }
}

await overStdio();
await overHttp();
