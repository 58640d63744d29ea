/**
 * client.ts: `RcpMethods` (how each method is typed), `RcpClientBase` with one camelCase method
 * per non-lifecycle method plus `<name>Stream` for streaming ones and `<name>Pages` for
 * paginated ones (emit-pages.ts), `RcpClient` (the base speaking the whole protocol) and
 * `connectHttp`, which creates the transport, connects and returns the client. Browser-safe:
 * `connectStdio` is in node.ts (emit-node.ts).
 *
 * A class keeps all its methods in a bundle, so what decides which validators a bundle carries
 * is the protocol a client is given: RcpClient's references every method's. `connectHttpWith`
 * gives an RcpClientBase the lifecycle part plus the calls named (`[retrieveCall]`) and types
 * the client with their members only (`RcpClientWith`), so `client.retrieve(...)` reads the
 * same while a bundler drops every other method's validators (emit-methods.ts).
 */
import { type MethodDeclarationStructure, type OptionalKind, type Project } from "ts-morph";
import { docs, GeneratedFile, type EmitSettings } from "./emit-file.js";
import { callConstName, clientProtocolConstName, protocolConstName } from "./emit-methods.js";
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
  /** wire name -> the client members that call it */
  const membersOf = new Map<string, string[]>();
  const claim = (name: string, method: string, source: string) => {
    const previous = baseClientMembers.has(name) ? "BaseClient" : taken.get(name);
    if (previous !== undefined)
      throw new SchemaFolderError(
        source,
        "/x-rcp/method",
        `client method ${name}() of "${method}" clashes with ${previous}`,
      );
    taken.set(name, `"${method}"`);
    membersOf.set(method, [...(membersOf.get(method) ?? []), name]);
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
    name: "RcpClientBase",
    isExported: true,
    extends: `${file.runtime("BaseClient")}<RcpMethods>`,
    docs: docs(
      "One method per RCP method, over the protocol the client is given: RcpClient gives it the whole protocol, connectHttpWith the lifecycle and the calls it names.",
    ),
    methods: members,
  });
  file.source.addClass({
    name: "RcpClient",
    isExported: true,
    extends: "RcpClientBase",
    docs: docs(
      "A typed RCP client speaking the whole protocol (its static `protocol` is what a Selector reads); call connect() first, or use connectHttp (or connectStdio from node.ts).",
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
  });
  addHttpConnects(file, folder, membersOf);
  addConnectMemory(file);
  return file.render();
}

/**
 * The HTTP clients, both made of the lifecycle part plus call descriptors (never the whole
 * protocol, whose params validators a client does not use): `connectHttp` with every call, and
 * `connectHttpWith(calls, options)` with those named, typed `RcpClientWith<M>` through
 * `RcpClientMembers` (which members call each method). `RcpCall` is any call it takes.
 */
function addHttpConnects(
  file: GeneratedFile,
  folder: LoadedSchemaFolder,
  membersOf: ReadonlyMap<string, readonly string[]>,
): void {
  const callable = folder.methods.filter((method) => method.annotation["lifecycle"] === undefined);
  const calls = callable.map(({ method }) => file.use("./methods.js", callConstName(method), false));
  file.source.addTypeAlias({
    name: "RcpCall",
    isExported: true,
    docs: docs("A call descriptor connectHttpWith takes: `retrieveCall`, `rerankCall`, ... from methods.ts."),
    type: calls.map((call) => `typeof ${call}`).join(" | "),
  });
  const members = (method: string): string =>
    (membersOf.get(method) ?? []).map((member) => JSON.stringify(member)).join(" | ");
  file.source.addTypeAlias({
    name: "RcpClientMembers",
    isExported: true,
    docs: docs("The RcpClient members that call each method."),
    type: `{ ${callable.map(({ method }) => `${JSON.stringify(method)}: ${members(method)};`).join(" ")} }`,
  });
  file.source.addTypeAlias({
    name: "RcpClientWith",
    isExported: true,
    typeParameters: [{ name: "M", constraint: "keyof RcpClientMembers" }],
    docs: docs("An RcpClient that speaks only the methods `M`: the members calling the others are absent."),
    type: "Omit<RcpClient, RcpClientMembers[keyof RcpClientMembers]> & Pick<RcpClient, RcpClientMembers[M]>",
  });
  const transportOptions = `ConnectOptions<${file.runtime("HttpClientTransportOptions")}>`;
  file.source.addFunction({
    name: "connectHttp",
    isExported: true,
    docs: docs(
      "Connects to a server over HTTP with Server-Sent Events for progress (§5.2) and completes initialize: a client of every method.",
    ),
    parameters: [{ name: "options", type: transportOptions }],
    returnType: "Promise<RcpClient>",
    statements: `return connectCalls([${calls.join(", ")}], options);`,
  });
  file.source.addFunction({
    name: "connectHttpWith",
    isExported: true,
    docs: docs(
      "Like connectHttp, for a client that makes only `calls` (e.g. `[retrieveCall]`): a bundle of it carries their validators and no other method's.",
    ),
    typeParameters: [{ name: "Calls", constraint: "readonly RcpCall[]", isConst: true }],
    parameters: [
      { name: "calls", type: "Calls" },
      { name: "options", type: transportOptions },
    ],
    returnType: `Promise<RcpClientWith<Calls[number]["method"]>>`,
    statements: "return connectCalls(calls, options);",
  });
  file.source.addFunction({
    name: "connectCalls",
    isAsync: true,
    docs: docs(
      "An HTTP client speaking the lifecycle plus `calls`, initialized; the transport is released if that fails.",
    ),
    parameters: [
      { name: "calls", type: "readonly RcpCall[]" },
      { name: "options", type: transportOptions },
    ],
    returnType: "Promise<RcpClientBase>",
    statements: [
      `const protocol = ${file.runtime("protocolWithCalls")}(${file.use("./methods.js", clientProtocolConstName, false)}, calls);`,
      `const client = new RcpClientBase({ ...options, protocol, transport: ${file.runtime("httpClientTransport")}(options.transport) });`,
      ...connectOrClose,
    ],
  });
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
