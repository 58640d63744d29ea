/** `client.js`: starts server.js, calls retrieve over stdio and prints one line per event as it arrives. */
import { connectStdio } from "./generated/index.js";

const client = await connectStdio({
  clientInfo: { name: "plain-js-client", version: "1.0.0" },
  transport: { command: process.execPath, args: [new URL("server.js", import.meta.url).pathname] },
});
try {
  for await (const event of client.retrieveStream({ query: "beta gamma", k: 2 })) {
    if (event.type === "progress") console.log(`progress ${event.stage} ${event.partial?.hits?.length}`);
    else console.log(`result ${event.result.hits.map((hit) => hit.id).join(",")}`);
  }
} finally {
  await client.close();
}
