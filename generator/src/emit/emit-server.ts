/**
 * server.ts: the handler interface (wire names as keys, lifecycle methods excluded: the
 * runtime answers them), the capability -> methods map, `HandlersFor<C>` making the
 * handlers of every advertised capability required, and a typed `createServer`.
 */
import { type Project } from "ts-morph";
import { docs, GeneratedFile, type EmitSettings } from "./emit-file.js";
import type { LoadedMethod, LoadedSchemaFolder } from "../load/loader.js";
import { protocolConstName } from "./emit-methods.js";
import { methodTypes, userMethods } from "../model/method-types.js";
import type { Shape } from "../model/shapes.js";

export function emitServer(
  project: Project,
  settings: EmitSettings,
  folder: LoadedSchemaFolder,
  shapes: readonly Shape[],
): Promise<string> {
  const file = new GeneratedFile(project, "server.ts", settings);
  const methods = userMethods(folder);
  const handler = file.runtime("Handler");
  file.source.addInterface({
    name: "RcpHandlers",
    isExported: true,
    docs: docs(
      "One handler per RCP method; a handler may return a value or a promise, or be a generator that yields progress and returns the result.",
    ),
    properties: methods.map((method) => {
      const types = methodTypes(file, shapes, method);
      return {
        name: JSON.stringify(method.method),
        hasQuestionToken: true,
        type: `${handler}<${types.params}, ${types.result}, ${types.partial}>`,
        docs: docs((folder.files.get(method.file) as { description?: unknown }).description, method.annotation["spec"]),
      };
    }),
  });

  const byCapability = new Map<string, string[]>();
  for (const method of methods) {
    const capability = method.annotation["capability"];
    if (typeof capability === "string")
      byCapability.set(capability, [...(byCapability.get(capability) ?? []), method.method]);
  }
  file.source.addTypeAlias({
    name: "CapabilityMethods",
    isExported: true,
    docs: docs("Capability key -> the methods it gates (§6, §7)."),
    type: `{ ${[...byCapability].map(([key, names]) => `${JSON.stringify(key)}: ${names.map((name) => JSON.stringify(name)).join(" | ")};`).join(" ")} }`,
  });
  file.source.addTypeAlias({
    name: "At",
    typeParameters: ["T", "P extends readonly string[]"],
    docs: docs("The type at a capability path."),
    type: "P extends readonly [infer H extends string, ...infer R extends string[]] ? T extends object ? H extends keyof T ? At<T[H], R> : undefined : undefined : T",
  });
  file.source.addTypeAlias({
    name: "On",
    typeParameters: ["C", "P extends readonly string[]"],
    docs: docs("Whether capabilities `C` advertise the path `P`: present and not false (§6)."),
    type: "[At<C, P>] extends [undefined | null | false] ? false : true",
  });
  file.source.addTypeAlias({
    name: "AdvertisedMethods",
    isExported: true,
    typeParameters: ["C"],
    docs: docs("The methods a server advertising capabilities `C` must implement."),
    type:
      methods
        .map(advertisedWhen)
        .filter((term) => term !== "")
        .join(" | ") || "never",
  });
  file.source.addTypeAlias({
    name: "HandlersFor",
    isExported: true,
    typeParameters: ["C"],
    docs: docs("Handlers for capabilities `C`: every advertised method's handler is required."),
    type: "RcpHandlers & { [M in AdvertisedMethods<C>]-?: NonNullable<RcpHandlers[M]> }",
  });
  const capabilities = file.use("./types.js", "ServerCapabilities", true);
  file.source.addTypeAlias({
    name: "KnownCapabilityKeys",
    isExported: true,
    typeParameters: ["C"],
    docs: docs(
      "`C` with every key the protocol does not define, nor the `x-` vendor space, typed `never`: a misspelt capability does not compile (§6.2).",
    ),
    type: `{ [K in keyof C]: K extends keyof ${capabilities} ? C[K] : never }`,
  });
  file.source.addFunction({
    name: "createServer",
    isExported: true,
    docs: docs(
      "A server for this protocol; advertising a capability without its handlers, or a misspelt one, does not compile.",
    ),
    typeParameters: [`const C extends ${capabilities}`],
    parameters: [
      {
        name: "options",
        type: `${file.runtime("ServerOptionsBase")}<C> & { capabilities: KnownCapabilityKeys<C>; handlers: HandlersFor<C> }`,
      },
    ],
    returnType: file.runtime("RcpServer"),
    statements: `return ${file.runtime("createServerRuntime")}(${file.use("./methods.js", protocolConstName, false)}, { ...options, handlers: { ...options.handlers } });`,
  });
  return file.render();
}

/** `"index/add"` when `C` advertises `index` and `index.writable`, as a conditional type. */
function advertisedWhen(method: LoadedMethod): string {
  const capability = method.annotation["capability"];
  if (typeof capability !== "string") return "";
  const requires = method.annotation["requires"];
  const paths = [[capability], ...(typeof requires === "string" ? [requires.split(".")] : [])];
  return paths.reduceRight(
    (inner, path) => `(On<C, ${JSON.stringify(path)}> extends true ? ${inner} : never)`,
    JSON.stringify(method.method),
  );
}
