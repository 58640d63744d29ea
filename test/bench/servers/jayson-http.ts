/** jayson's node:http JSON-RPC server answering the same retrieve. */
import jayson from "jayson";
import { buildRetrieveResult } from "../fixture.js";
import { listenAndAnnounce } from "./announce.js";
import { installProbe } from "./probe.js";

installProbe();

const server = new jayson.Server({
  retrieve: (_params: unknown, callback: (error: null, result: unknown) => void) =>
    callback(null, buildRetrieveResult()),
});
const http = server.http();
listenAndAnnounce(http);
