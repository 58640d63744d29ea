/**
 * client.ts: `RcpMethods` (how each method is typed), `RcpClient` with one camelCase method
 * per non-lifecycle method plus `<name>Stream` for streaming ones and `<name>Pages` for
 * paginated ones (emit-pages.ts), and `connectHttp`, which creates the transport, connects
 * and returns the client. Browser-safe: `connectStdio` is in node.ts (emit-node.ts).
 */
import { type MethodDeclarationStructure, type OptionalKind, type Project } from "ts-morph";
import { docs, GeneratedFile, type EmitSettings } from "./emit-file.js";
import { protocolConstName } from "./emit-methods.js";
import { pagesMembers } from "./emit-pages.js";
import { readPointer } from "../load/json-pointer.js";
import type { LoadedSchemaFolder } from "../load/loader.js";
import { methodTypes, userMethods } from "../model/method-types.js";
import { camelName } from "../model/naming.js";
import type { RuntimeSymbol } from "./runtime-symbols.js";
import { SchemaFolderError } from "../load/schema-folder-error.js";
import type { Shape } from "../model/shapes.js";

/** Members of BaseClient a generated method must not shadow. */
const baseClientMembers = new Set([
  "constructor",
  "connect",
  "close",
  "call",
  "stream",
  "pages",
  "notify",
  "supports",
  "serverInfo",
  "serverCapabilities",
  "protocolVersion",
  "conformance",
]);

export function emitClient(
  project: Project,
  settings: EmitSettings,
  folder: LoadedSchemaFolder,
  shapes: readonly Shape[],
): Promise<string> {
  const file = new GeneratedFile(project, "client.ts", settings);
  const callOptions = file.runtime("CallOptions");
  const members: OptionalKind<MethodDeclarationStructure>[] = [];
  const entries: string[] = [];
  const taken = new Map<string, string>();
  const claim = (name: string, method: string, source: string) => {
    const previous = baseClientMembers.has(name) ? "BaseClient" : taken.get(name);
    if (previous !== undefined)
      throw new SchemaFolderError(
        source,
        "/x-rcp/method",
        `client method ${name}() of "${method}" clashes with ${previous}`,
      );
    taken.set(name, `"${method}"`);
    return name;
  };

  for (const method of folder.methods) {
    const types = methodTypes(file, shapes, method);
    entries.push(
      `${JSON.stringify(method.method)}: { params: ${types.params}; result: ${types.result}; partial: ${types.partial} };`,
    );
    if (method.annotation["lifecycle"] !== undefined) continue;
    const description = (folder.files.get(method.file) as { description?: unknown }).description;
    const required = readPointer(folder.files.get(method.file), "/$defs/params/required");
    const params = {
      name: "params",
      type: types.params,
      ...(Array.isArray(required) && required.length > 0 ? {} : { initializer: "{}" }),
    };
    const wire = JSON.stringify(method.method);
    members.push({
      name: claim(camelName(method.method), method.method, method.file),
      docs: docs(description, method.annotation["spec"]),
      parameters: [params, { name: "options", type: `${callOptions}<${types.partial}>`, hasQuestionToken: true }],
      returnType: `Promise<${types.result}>`,
      statements: `return this.call(${wire}, params, options);`,
    });
    if (method.annotation["streaming"] === true)
      members.push({
        name: claim(`${camelName(method.method)}Stream`, method.method, method.file),
        docs: docs(`Like ${camelName(method.method)}(), as progress events followed by exactly one result (§9).`),
        parameters: [
          params,
          { name: "options", type: `Omit<${callOptions}<${types.partial}>, "onProgress">`, hasQuestionToken: true },
        ],
        returnType: `AsyncGenerator<${file.runtime("StreamEvent")}<${types.result}, ${types.partial}>, void, undefined>`,
        statements: `return this.stream(${wire}, params, options);`,
      });
    members.push(
      ...pagesMembers(method, types, params, callOptions, (name) => claim(name, method.method, method.file)),
    );
  }

  file.source.addTypeAlias({
    name: "RcpMethods",
    isExported: true,
    docs: docs("How every method is typed: params, result and progress partial."),
    type: `{ ${entries.join(" ")} }`,
  });
  const baseOptions = file.runtime("BaseClientOptions");
  file.source.addTypeAlias({
    name: "RcpClientOptions",
    isExported: true,
    type: `Omit<${baseOptions}, "protocol">`,
  });
  file.source.addTypeAlias({
    name: "ConnectOptions",
    isExported: true,
    typeParameters: ["TransportOptions"],
    docs: docs("Client options plus the options of the transport to create."),
    type: `Omit<${baseOptions}, "protocol" | "transport"> & { transport: TransportOptions }`,
  });
  file.source.addClass({
    name: "RcpClient",
    isExported: true,
    extends: `${file.runtime("BaseClient")}<RcpMethods>`,
    docs: docs(
      "A typed RCP client: one method per RCP method; call connect() first, or use connectHttp (or connectStdio from node.ts).",
    ),
    properties: [
      {
        name: protocolConstName,
        isStatic: true,
        isReadonly: true,
        docs: docs("The protocol descriptor every instance speaks; a Selector reads the registry validator from it."),
        initializer: file.use("./methods.js", protocolConstName, false),
      },
    ],
    ctors: [
      {
        parameters: [{ name: "options", type: "RcpClientOptions" }],
        statements: `super({ ...options, protocol: ${file.use("./methods.js", protocolConstName, false)} });`,
      },
    ],
    methods: members,
  });
  addConnect(
    file,
    "connectHttp",
    "httpClientTransport",
    "HttpClientTransportOptions",
    "Connects to a server over HTTP with Server-Sent Events for progress (§5.2) and completes initialize.",
  );
  addConnectMemory(file);
  return file.render();
}

/** `connectMemory(server, options?)`: the typed client wired to a server in memory, for unit tests of handlers. */
function addConnectMemory(file: GeneratedFile): void {
  file.source.addFunction({
    name: "connectMemory",
    isExported: true,
    isAsync: true,
    docs: docs(
      "Connects to `server` in memory (no process, no socket; frames still cross as JSON text) and completes initialize. For unit tests of handlers.",
    ),
    parameters: [
      { name: "server", type: file.runtime("RcpServer") },
      {
        name: "options",
        type: `Omit<RcpClientOptions, "transport" | "clientInfo"> & { clientInfo?: RcpClientOptions["clientInfo"] }`,
        initializer: "{}",
      },
    ],
    returnType: "Promise<RcpClient>",
    statements: [
      `const pair = ${file.runtime("createMemoryTransportPair")}();`,
      "server.connect(pair.server);",
      'const client = new RcpClient({ clientInfo: { name: "rcp-memory-client", version: "0.0.0" }, ...options, transport: pair.client });',
      ...connectOrClose,
    ],
  });
}

/** `name(options)`: creates the transport, connects, and closes it again if initialize fails. */
export function addConnect(
  file: GeneratedFile,
  name: string,
  factory: RuntimeSymbol,
  options: RuntimeSymbol,
  description: string,
): void {
  file.source.addFunction({
    name,
    isExported: true,
    isAsync: true,
    docs: docs(description),
    parameters: [{ name: "options", type: `${connectOptions(file)}<${file.runtime(options)}>` }],
    returnType: `Promise<${clientClass(file)}>`,
    statements: [
      `const client = new ${clientClass(file)}({ ...options, transport: ${file.runtime(factory)}(options.transport) });`,
      ...connectOrClose,
    ],
  });
}

/** Names from client.ts, imported when the connect function lives in another file. */
const fromClient = (file: GeneratedFile, name: string, typeOnly: boolean): string =>
  file.name === "client.ts" ? name : file.use("./client.js", name, typeOnly);
const clientClass = (file: GeneratedFile): string => fromClient(file, "RcpClient", false);
const connectOptions = (file: GeneratedFile): string => fromClient(file, "ConnectOptions", true);

/** The end of every connect function: initialize, or release the transport and rethrow. */
const connectOrClose = [
  "try { await client.connect(); } catch (error) { await client.close(); throw error; }",
  "return client;",
];
