/**
 * Drives an RCP server with the reference Node client (rcp-ref sdk/node) through every method
 * the rcp-gen demo engine advertises, and prints one JSON report on stdout:
 * `{ capabilities: [...], "<method>": { ok: <what the client returned> } | { error: { code, message } } }`.
 *
 *   node reference-node-client.js <sdk/node/src/index.js> stdio <server argv...>
 *   node reference-node-client.js <sdk/node/src/index.js> http <base url>
 */
import { pathToFileURL } from "node:url";

/** What this driver calls of the reference SDK: plain JavaScript outside this repository, with no types of its own. */
interface ReferenceClient {
  capabilities: Record<string, unknown>;
  embed(texts: string[]): Promise<unknown>;
  embedSparse(texts: string[]): Promise<unknown>;
  rerank(query: string, passages: string[]): Promise<unknown>;
  search(query: string, k: number): Promise<unknown>;
  transform(query: string, method: string): Promise<unknown>;
  indexAdd(params: object): Promise<unknown>;
  indexDelete(params: object): Promise<unknown>;
  info(): Promise<unknown>;
  ping(nonce: string): Promise<unknown>;
  shutdown(): Promise<unknown>;
}
interface ReferenceSdk {
  connectStdio(argv: string[]): Promise<ReferenceClient>;
  connectHttp(url: string | undefined): Promise<ReferenceClient>;
}

const [sdk = "", mode, ...target] = process.argv.slice(2);
const rcp = (await import(pathToFileURL(sdk).href)) as ReferenceSdk;
const client = mode === "stdio" ? await rcp.connectStdio(target) : await rcp.connectHttp(target[0]);
const report: Record<string, unknown> = { capabilities: Object.keys(client.capabilities).sort() };

async function call(method: string, action: () => Promise<unknown>): Promise<void> {
  try {
    report[method] = { ok: await action() };
  } catch (error) {
    const { code, detail } = error as { code?: number; detail?: string };
    report[method] = { error: { code, message: detail ?? String(error) } };
  }
}

await call("embed", () => client.embed(["galaxy nebula"]));
await call("embed/sparse", () => client.embedSparse(["galaxy nebula", "sourdough"]));
await call("rerank", () => client.rerank("telescope galaxy", ["a broth simmers", "the telescope observes a galaxy"]));
await call("retrieve", () => client.search("compost for tomatoes", 3));
await call("query/transform", () => client.transform("What is a DB index?", "rewrite"));
await call("index/add", () => client.indexAdd({ documents: [{ id: "interop-node", text: "a wombat digs" }] }));
await call("index/delete", () => client.indexDelete({ ids: ["interop-node"] }));
await call("info", () => client.info());
await call("ping", () => client.ping("node"));
await client.shutdown();
process.stdout.write(`${JSON.stringify(report)}\n`);
