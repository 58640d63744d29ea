/** vscode-jsonrpc over stdio (its own Content-Length framing) answering the same retrieve. */
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from "vscode-jsonrpc/node";
import { buildInitializeResult, buildRetrieveResult } from "../fixture.js";
import { installProbe } from "./probe.js";

installProbe();
const connection = createMessageConnection(
  new StreamMessageReader(process.stdin),
  new StreamMessageWriter(process.stdout),
);
connection.onRequest("initialize", () => buildInitializeResult());
connection.onRequest("retrieve", () => buildRetrieveResult());
connection.onClose(() => process.exit(0));
connection.listen();
process.stdin.on("end", () => process.exit(0));
