/**
 * client.ts: `RcpMethods` (how each method is typed), `RcpClientBase` with one camelCase method
 * per method a client calls (every one but `initialize`, which connect() sends) plus `<name>Stream` for streaming ones and `<name>Pages` for
 * paginated ones (client-pages.ts), `RcpClient` (the base speaking the whole protocol) and
 * `connectHttp`, which creates the transport, connects and returns the client. Browser-safe:
 * `connectStdio` is in node.ts (the node target).
 *
 * A class keeps all its methods in a bundle, so what decides which validators a bundle carries
 * is the protocol a client is given: RcpClient's references every method's. `connectHttpWith`
 * gives an RcpClientBase the lifecycle part plus the calls named (`[retrieveCall]`) and types
 * the client with their members only (`RcpClientWith`), so `client.retrieve(...)` reads the
 * same while a bundler drops every other method's validators (methods.ts).
 *
 * What is the same for every schema is the runtime's (`connectHttpCalls`, `connectMemoryClient`,
 * `ConnectOptions`): the connect functions here only pass it this schema's classes and calls.
 */
import { baseClientMembers, type RuntimeSymbol } from "@rcp-gen/runtime/codegen-symbols";
import { SchemaFolderError } from "../load/schema-folder-error.js";
import type { GeneratedFile } from "../plugin/generated-file.js";
import { targetCode } from "./builtin.js";
import { userMethods, type RcpModel } from "../model/model.js";
import { callConstName, clientProtocolConstName, protocolConstName } from "./methods.js";
import { pagesMember } from "./client-pages.js";
import { propertyName } from "./shared/literal.js";
import { methodTypes, type ClientMember } from "./shared/method-types.js";

/** Names a generated method must not take: BaseClient's public members, and a class's constructor. */
const reservedMembers = new Set(["constructor", ...baseClientMembers]);

export const clientTarget = targetCode({
  generate({ model, newFile }) {
    const file = newFile("client.ts");
    const callOptions = file.runtime("CallOptions");
    const members: ClientMember[] = [];
    const entries: string[] = [];
    const taken = new Map<string, string>();
    /** wire name -> the client members that call it */
    const membersOf = new Map<string, string[]>();
    const claim = (name: string, method: string, source: string) => {
      const previous = reservedMembers.has(name) ? "BaseClient" : taken.get(name);
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

    for (const method of model.methods) {
      const types = methodTypes(file, method);
      entries.push(
        `${propertyName(method.method)}: { params: ${types.params}; result: ${types.result}; partial: ${types.partial} };`,
      );
      if (method.lifecycle === "initialize") continue;
      const required = method.params.schema["required"];
      const params = `params: ${types.params}${Array.isArray(required) && required.length > 0 ? "" : " = {}"}`;
      const wire = JSON.stringify(method.method);
      const name = method.camelName;
      members.push({
        docs: file.jsDoc(method.description, { spec: method.spec, from: method.file }),
        name: claim(name, method.method, method.file),
        parameters: [params, `options?: ${callOptions}<${types.partial}>`],
        returns: `Promise<${types.result}>`,
        statement: `return this.call(${wire}, params, options);`,
      });
      if (method.streaming)
        members.push({
          docs: file.jsDoc(`Like ${name}(), as progress events followed by exactly one result (§9).`),
          name: claim(`${name}Stream`, method.method, method.file),
          parameters: [params, `options?: Omit<${callOptions}<${types.partial}>, "onProgress">`],
          returns: `AsyncGenerator<${file.runtime("StreamEvent")}<${types.result}, ${types.partial}>, void, undefined>`,
          statement: `return this.stream(${wire}, params, options);`,
        });
      const pages = pagesMember(file, method, types, params, callOptions, (member) =>
        claim(member, method.method, method.file),
      );
      if (pages) members.push(pages);
    }

    const baseOptions = file.runtime("BaseClientOptions");
    const protocol = file.import(protocolConstName, file.relative("methods.ts"));
    file.print("");
    file.print(file.jsDoc("How every method is typed: params, result and progress partial."));
    file.block("export type RcpMethods = {", () => entries.forEach((entry) => file.print(entry)), "};");
    file.print(`export type RcpClientOptions = Omit<${baseOptions}, "protocol">;`);
    file.print(file.jsDoc("Client options plus the options of the transport to create."));
    file.print(`export type { ${file.runtime("ConnectOptions")} };`);
    file.print("");
    file.print(
      file.jsDoc(
        "One method per RCP method, over the protocol the client is given: RcpClient gives it the whole protocol, connectHttpWith the lifecycle and the calls it names.",
      ),
    );
    file.block(`export class RcpClientBase extends ${file.runtime("BaseClient")}<RcpMethods> {`, () =>
      members.forEach((member, index) => {
        if (index > 0) file.print("");
        if (member.docs !== "") file.print(member.docs);
        file.block(`${member.name}(${member.parameters.join(", ")}): ${member.returns} {`, () =>
          file.print(member.statement),
        );
      }),
    );
    file.print("");
    file.print(
      file.jsDoc(
        "A typed RCP client speaking the whole protocol (its static `protocol` is what a Selector reads); call connect() first, or use connectHttp (or connectStdio from node.ts).",
      ),
    );
    file.block("export class RcpClient extends RcpClientBase {", () => {
      file.print(
        file.jsDoc("The protocol descriptor every instance speaks; a Selector reads the registry validator from it."),
      );
      file.print(`static readonly ${protocolConstName} = ${protocol};`);
      file.print("");
      file.block("constructor(options: RcpClientOptions) {", () =>
        file.print(`super({ ...options, protocol: ${protocol} });`),
      );
    });
    addHttpConnects(file, model, membersOf);
    addConnectMemory(file);
    return [file];
  },
});

/**
 * The HTTP clients, both made of the lifecycle part plus call descriptors (never the whole
 * protocol, whose params validators a client does not use): `connectHttp` with every call, and
 * `connectHttpWith(calls, options)` with those named, typed `RcpClientWith<M>` through
 * `RcpClientMembers` (which members call each method). `RcpCall` is any call it takes.
 */
function addHttpConnects(
  file: GeneratedFile,
  model: RcpModel,
  membersOf: ReadonlyMap<string, readonly string[]>,
): void {
  const methods = file.relative("methods.ts");
  const callable = userMethods(model);
  const calls = callable.map(({ camelName }) => file.import(callConstName(camelName), methods));
  const members = (method: string) =>
    (membersOf.get(method) ?? []).map((member) => JSON.stringify(member)).join(" | ") || "never";
  const transportOptions = `options: ${file.runtime("ConnectOptions")}<${file.runtime("HttpClientTransportOptions")}>`;
  file.print("");
  file.print(file.jsDoc("A call descriptor connectHttpWith takes: `retrieveCall`, `rerankCall`, ... from methods.ts."));
  file.print(`export type RcpCall = ${calls.map((call) => `typeof ${call}`).join(" | ") || "never"};`);
  file.print(file.jsDoc("The RcpClient members that call each method."));
  file.block(
    "type RcpClientMembers = {",
    () => callable.forEach(({ method }) => file.print(`${propertyName(method)}: ${members(method)};`)),
    "};",
  );
  file.print(file.jsDoc("An RcpClient that speaks only the methods `M`: the members calling the others are absent."));
  file.print(
    [
      "export type RcpClientWith<M extends keyof RcpClientMembers> = Omit<",
      "  RcpClient,",
      "  RcpClientMembers[keyof RcpClientMembers]",
      "> &",
      "  Pick<RcpClient, RcpClientMembers[M]>;",
    ].join("\n"),
  );
  const connectCalls = (calls: string) =>
    file.print(
      `return ${file.runtime("connectHttpCalls")}(RcpClientBase, ${file.import(clientProtocolConstName, methods)}, ${calls}, options);`,
    );
  file.print("");
  file.print(
    file.jsDoc(
      "Connects to a server over HTTP with Server-Sent Events for progress (§5.2) and completes initialize: a client of every method.",
    ),
  );
  file.block(`export function connectHttp(${transportOptions}): Promise<RcpClient> {`, () =>
    connectCalls(`[${calls.join(", ")}]`),
  );
  file.print("");
  file.print(
    file.jsDoc(
      "Like connectHttp, for a client that makes only `calls` (e.g. `[retrieveCall]`): a bundle of it carries their validators and no other method's.",
    ),
  );
  file.block(
    `export function connectHttpWith<const Calls extends readonly RcpCall[]>(calls: Calls, ${transportOptions}): Promise<RcpClientWith<Calls[number]["method"]>> {`,
    () => connectCalls("calls"),
  );
}

/** `connectMemory(server, options?)`: the typed client wired to a server in memory, for unit tests of handlers. */
function addConnectMemory(file: GeneratedFile): void {
  file.print("");
  file.print(
    file.jsDoc(
      "Connects to `server` in memory (no process, no socket; frames still cross as JSON text) and completes initialize. For unit tests of handlers.",
    ),
  );
  const parameters = [`server: ${file.runtime("RcpServer")}`, `options?: ${file.runtime("MemoryConnectOptions")}`];
  file.block(`export function connectMemory(${parameters.join(", ")}): Promise<RcpClient> {`, () =>
    file.print(`return ${file.runtime("connectMemoryClient")}(RcpClient, server, options);`),
  );
}

/** `name(options)`: creates the transport, connects, and closes it again if initialize fails. */
export function addConnect(
  file: GeneratedFile,
  name: string,
  factory: RuntimeSymbol,
  options: RuntimeSymbol,
  description: string,
): void {
  const fromClient = (symbol: string, typeOnly: boolean) =>
    file.path === "client.ts" ? symbol : file.import(symbol, file.relative("client.ts"), { typeOnly });
  const client = fromClient("RcpClient", false);
  file.print("");
  file.print(file.jsDoc(description));
  const parameter = `options: ${fromClient("ConnectOptions", true)}<${file.runtime(options)}>`;
  file.block(`export function ${name}(${parameter}): Promise<${client}> {`, () =>
    file.print(
      `return ${file.runtime("connectOrClose")}(new ${client}({ ...options, transport: ${file.runtime(factory)}(options.transport) }));`,
    ),
  );
}
