/**
 * Every option SECURITY.md and the guides of docs/ name exists where they say, typed, with a doc
 * comment an editor shows. Option paths are read from the documents themselves (`limits.*`,
 * `http.*`, `listen({ ... })`, and the plain names each document lists), then looked up in
 * the types a user meets: the generated createServer's options, listen's, and the client's.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Project, type Type } from "ts-morph";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../generator/run-cli.js";

const codeSpans = (document: string): string[] =>
  [...readFileSync(join(repoRoot, document), "utf8").matchAll(/`([^`\n]+)`/g)].map((match) => match[1]!);

type Where = "server" | "listen" | "call" | "client" | "stdio";

/** `limits.maxBatchSize` -> server limits.maxBatchSize; `listen({ host, port })` -> listen host, listen port. */
function structuredOptions(spans: readonly string[]): Array<[Where, string]> {
  return spans.flatMap((span): Array<[Where, string]> => {
    const dotted = /^((?:limits|http)\.[\w.]+)/.exec(span);
    if (dotted && !dotted[1]!.endsWith("*")) return [["server", dotted[1]!]];
    const listened = /^listen\(\{ ([\w, ]+) \}\)$/.exec(span);
    if (listened) return listened[1]!.split(", ").map((name): [Where, string] => ["listen", name]);
    return [];
  });
}

/** Options each document names bare, in prose and lists, where the document says they go. */
const plainOptions: Record<string, Array<[Where, string]>> = {
  "SECURITY.md": [
    ["server", "validateResults"],
    ["server", "diagnostics"],
    ["server", "http.authenticate"],
    ["server", "http.cors"],
    ["server", "http.sessions"],
    ["server", "http.maxSessions"],
    ["server", "http.maxConcurrentRequests"],
    ["server", "http.keepAliveMs"],
    ["server", "http.allowedHosts"],
    ["server", "http.sessionIdleMs"],
    ["listen", "port"],
    ["listen", "host"],
    ["listen", "requestTimeoutMs"],
    ["call", "timeout"],
    ["client", "defaultTimeout"],
    ["call", "resetTimeoutOnProgress"],
    ["call", "maxTotalTimeout"],
    ["stdio", "exitTimeoutMs"],
    ["stdio", "maxMessageBytes"],
  ],
  "docs/server.md": [["server", "validateResults"]],
  "docs/client.md": [
    ["call", "signal"],
    ["call", "timeout"],
    ["call", "resetTimeoutOnProgress"],
    ["call", "maxTotalTimeout"],
    ["call", "onProgress"],
    ["call", "onLog"],
    ["call", "logLevel"],
    ["call", "meta"],
    ["call", "headers"],
    ["client", "onDiagnostic"],
    ["client", "strict"],
    ["stdio", "maxMessageBytes"],
  ],
  "docs/extension-points.md": [
    ["client", "interceptors"],
    ["client", "retry"],
    ["server", "interceptors"],
    ["server", "http.authenticate"],
  ],
};

const project = new Project({ tsConfigFilePath: join(repoRoot, "tsconfig.json"), skipAddingFilesFromTsConfig: true });
const serverFile = project.addSourceFileAtPath(join(repoRoot, "generated/server.ts"));
const nodeFile = project.addSourceFileAtPath(join(repoRoot, "runtime/src/node/index.ts"));
const apiFile = project.addSourceFileAtPath(join(repoRoot, "runtime/src/protocol/types.ts"));
const clientFile = project.addSourceFileAtPath(join(repoRoot, "runtime/src/client/client-options.ts"));
const stdioFile = project.addSourceFileAtPath(join(repoRoot, "runtime/src/client/stdio-transport.ts"));
project.resolveSourceFileDependencies();

const parameterType = (fn: ReturnType<typeof serverFile.getFunctionOrThrow>, index: number): Type =>
  fn.getParameters()[index]!.getType();

const roots: Record<Where, Type> = {
  server: parameterType(serverFile.getFunctionOrThrow("createServer"), 0),
  listen: parameterType(nodeFile.getFunctionOrThrow("listen"), 1).getNonNullableType(),
  call: apiFile.getInterfaceOrThrow("CallOptions").getType(),
  client: clientFile.getInterfaceOrThrow("BaseClientOptions").getType(),
  stdio: stdioFile.getInterfaceOrThrow("StdioClientTransportOptions").getType(),
};

/** The doc comment of the option at `path` below `root`, or a reason it has none. */
function docOf(root: Type, path: string): string {
  let type = root;
  let doc = "";
  for (const name of path.split(".")) {
    const property = type.getProperty(name);
    if (!property) return `no option "${name}"`;
    const declaration = property.getDeclarations()[0];
    const jsDocs =
      declaration && "getJsDocs" in declaration ? (declaration.getJsDocs as () => { getInnerText(): string }[])() : [];
    doc = jsDocs
      .map((jsDoc) => jsDoc.getInnerText())
      .join(" ")
      .trim();
    type = property.getTypeAtLocation(serverFile).getNonNullableType();
  }
  return doc === "" ? "no doc comment" : doc;
}

describe.each(Object.keys(plainOptions))("options %s names", (document) => {
  const spans = codeSpans(document);
  const named = [...structuredOptions(spans), ...plainOptions[document]!];

  it("are named in the document as code", () => {
    const plain = plainOptions[document]!.map(([, path]) => path.split(".").at(-1)!);
    expect(plain.filter((name) => !spans.some((span) => new RegExp(`\\b${name}\\b`).test(span)))).toEqual([]);
    expect(named.length).toBeGreaterThan(0);
  });

  it("exist where the document puts them, each with a doc comment", () => {
    const missing = named
      .map(([where, path]) => ({ where, path, doc: docOf(roots[where], path) }))
      .filter(({ doc }) => doc.startsWith("no "));
    expect(missing).toEqual([]);
  });
});
