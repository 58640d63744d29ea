/**
 * server.ts: the handler interface (wire names as keys, lifecycle methods excluded: the
 * runtime answers them), the capability -> methods map, `HandlersFor<C>` making the
 * handlers of every advertised capability required, and a typed `createServer`.
 */
import { userMethods, type RcpMethod } from "../model/model.js";
import { definePlugin } from "../plugin/plugin.js";
import { protocolConstName } from "./emit-methods.js";
import { methodTypes } from "./method-types.js";

export const serverTarget = definePlugin({
  name: "server",
  generate({ model, newFile }) {
    const file = newFile("server.ts");
    const methods = userMethods(model);
    const handler = file.runtime("Handler");
    file.print("");
    file.print(
      file.jsDoc(
        "One handler per RCP method; a handler may return a value or a promise, or be a generator that yields progress and returns the result.",
      ),
    );
    file.print("export interface RcpHandlers {");
    for (const method of methods) {
      const types = methodTypes(file, method);
      file.print(file.jsDoc(method.description, { spec: method.spec, from: method.file }));
      file.print(`${JSON.stringify(method.method)}?: ${handler}<${types.params}, ${types.result}, ${types.partial}>;`);
    }
    file.print("}");
    file.print("");

    const byCapability = new Map<string, string[]>();
    for (const method of methods)
      if (method.capability !== null)
        byCapability.set(method.capability, [...(byCapability.get(method.capability) ?? []), method.method]);
    const entries = [...byCapability].map(
      ([key, names]) => `${JSON.stringify(key)}: ${names.map((name) => JSON.stringify(name)).join(" | ")};`,
    );
    file.print(file.jsDoc("Capability key -> the methods it gates (§6, §7)."));
    file.print(`export type CapabilityMethods = { ${entries.join(" ")} };`);
    file.print(file.jsDoc("The type at a capability path."));
    file.print(
      "type At<T, P extends readonly string[]> = P extends readonly [infer H extends string, ...infer R extends string[]] ? T extends object ? H extends keyof T ? At<T[H], R> : undefined : undefined : T;",
    );
    file.print(file.jsDoc("Whether capabilities `C` advertise the path `P`: present and not false (§6)."));
    file.print(
      "type On<C, P extends readonly string[]> = [At<C, P>] extends [undefined | null | false] ? false : true;",
    );
    file.print(file.jsDoc("The methods a server advertising capabilities `C` must implement."));
    const advertised = methods.map(advertisedWhen).filter((term) => term !== "");
    file.print(`export type AdvertisedMethods<C> = ${advertised.join(" | ") || "never"};`);
    file.print(file.jsDoc("Handlers for capabilities `C`: every advertised method's handler is required."));
    file.print(
      "export type HandlersFor<C> = RcpHandlers & { [M in AdvertisedMethods<C>]-?: NonNullable<RcpHandlers[M]> };",
    );
    const capabilities = file.import("ServerCapabilities", file.relative("types.ts"), { typeOnly: true });
    file.print(
      file.jsDoc(
        "`C` with every key the protocol does not define, nor the `x-` vendor space, typed `never`: a misspelt capability does not compile (§6.2).",
      ),
    );
    file.print(
      `export type KnownCapabilityKeys<C> = { [K in keyof C]: K extends keyof ${capabilities} ? C[K] : never };`,
    );
    file.print("");
    file.print(
      file.jsDoc(
        "A server for this protocol; advertising a capability without its handlers, or a misspelt one, does not compile.",
      ),
    );
    file.print(
      `export function createServer<const C extends ${capabilities}>(options: ${file.runtime("ServerOptionsBase")}<C> & { capabilities: KnownCapabilityKeys<C>; handlers: HandlersFor<C> }): ${file.runtime("RcpServer")} {`,
    );
    const protocol = file.import(protocolConstName, file.relative("methods.ts"));
    file.print(
      `return ${file.runtime("createServerRuntime")}(${protocol}, { ...options, handlers: { ...options.handlers } });`,
    );
    file.print("}");
    return [file];
  },
});

/** `"index/add"` when `C` advertises `index` and `index.writable`, as a conditional type. */
function advertisedWhen(method: RcpMethod): string {
  if (method.capability === null) return "";
  const paths = [[method.capability], ...(method.requires === undefined ? [] : [method.requires.split(".")])];
  return paths.reduceRight(
    (inner, path) => `(On<C, ${JSON.stringify(path)}> extends true ? ${inner} : never)`,
    JSON.stringify(method.method),
  );
}
