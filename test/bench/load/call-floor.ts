/**
 * Scenario 14's floor for `rcp-gen call --http`: a plain Node script that imports the generated
 * client and makes the same call, printing the result as JSON.
 *   node call-floor.js <base url> <params json>
 */
import { connectHttp } from "../../../generated/index.js";

const [url = "", params = "{}"] = process.argv.slice(2);
const client = await connectHttp({ clientInfo: { name: "call-floor", version: "1" }, transport: { url } });
const result = await client.retrieve(JSON.parse(params) as Parameters<typeof client.retrieve>[0]);
process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
await client.close();
