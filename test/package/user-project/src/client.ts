/**
 * `client.js <command to start the server...>`: calls that server over stdio, then over
 * HTTP/SSE, printing one `<transport> progress|result ...` line per event as it arrives.
 */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { connectHttp, connectStdio, type RcpClient } from "./generated/index.js";

const [command = process.execPath, ...args] = process.argv.slice(2);
const clientInfo = { name: "acme-client", version: "1.0.0" };

async function exercise(client: RcpClient, transport: string): Promise<void> {
  for await (const event of client.retrieveStream({ query: "beta gamma", k: 2 })) {
    if (event.type === "progress") console.log(`${transport} progress ${event.stage} ${event.partial?.hits?.length}`);
    else console.log(`${transport} result ${event.result.hits.map((hit) => hit.id).join(",")}`);
  }
  const onProgress = (event: { partial?: { word: string } }) =>
    console.log(`${transport} progress ${event.partial?.word}`);
  console.log(`${transport} result ${(await client.xAcmeEcho({ text: "typed all the way" }, { onProgress })).echo}`);
}

const overStdio = await connectStdio({ clientInfo, transport: { command, args: [...args, "--stdio"] } });
await exercise(overStdio, "stdio").finally(() => overStdio.close());

const httpServer = spawn(command, args, { stdio: ["ignore", "pipe", "inherit"] });
for await (const url of createInterface({ input: httpServer.stdout })) {
  const overHttp = await connectHttp({ clientInfo, transport: { url } });
  await exercise(overHttp, "http").finally(() => overHttp.close());
  break;
}
httpServer.kill();
