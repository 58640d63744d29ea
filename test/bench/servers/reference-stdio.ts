/**
 * The RCP reference Node SDK (MIT, a copy at ../shared/reference/rcp-ref/sdk/node) over its own
 * stdio loop, answering the same retrieve. BENCH_REFERENCE_SDK is the path of its index.js; the
 * scenario leaves this peer out, with a note, when that copy is absent.
 */
import { pathToFileURL } from "node:url";
import { buildRetrieveResult } from "../fixture.js";
import { installProbe } from "./probe.js";

interface ReferenceServer {
  setInfo(name: string, version: string): ReferenceServer;
  advertise(capability: string, meta: object): ReferenceServer;
  on(method: string, handler: (params: unknown) => unknown): ReferenceServer;
  serveStdio(): Promise<void>;
}

interface ReferenceSdk {
  Server: new () => ReferenceServer;
  Capability: { Retrieve: string };
  Method: { RETRIEVE: string };
}

installProbe();
const sdk = (await import(pathToFileURL(process.env.BENCH_REFERENCE_SDK ?? "").href)) as ReferenceSdk;
const server = new sdk.Server()
  .setInfo("bench-reference", "1.0.0")
  .advertise(sdk.Capability.Retrieve, { maxK: 50 })
  .on(sdk.Method.RETRIEVE, () => buildRetrieveResult());
await server.serveStdio();
process.exit(0);
