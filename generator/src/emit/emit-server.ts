/**
 * server.ts: the handler interface (wire names as keys, lifecycle methods excluded: the
 * runtime answers them), the capability -> methods map, `HandlersFor<C>` making the
 * handlers of every advertised capability required, and a typed `createServer`.
 */
import { userMethods, type RcpMethod } from "../model/model.js";
import type { Doc } from "../plugin/layout/doc.js";
import {
  conditionalType,
  memberUnion,
  objectType,
  propertyKey,
  signature,
  stringLiteral,
  typeAlias,
  typeArguments,
} from "../plugin/layout/syntax.js";
import { definePlugin } from "../plugin/plugin.js";
import { protocolConstName } from "./emit-methods.js";
import { methodTypes } from "./method-types.js";

export const serverTarget = definePlugin({
  name: "server",
  generate({ model, newFile }) {
    const file = newFile("server.ts", { format: "printed" });
    const methods = userMethods(model);
    const handler = file.runtime("Handler");
    file.print("");
    file.print(
      file.jsDoc(
        "One handler per RCP method; a handler may return a value or a promise, or be a generator that yields progress and returns the result.",
      ),
    );
    file.block("export interface RcpHandlers {", () => {
      for (const method of methods) {
        const types = methodTypes(file, method);
        file.print(file.jsDoc(method.description, { spec: method.spec, from: method.file }));
        const handlerType = typeArguments(handler, [types.params, types.result, types.partial]);
        file.print(propertyKey(method.method), "?: ", handlerType, ";");
      }
    });
    file.print("");

    const byCapability = new Map<string, string[]>();
    for (const method of methods)
      if (method.capability !== null)
        byCapability.set(method.capability, [...(byCapability.get(method.capability) ?? []), method.method]);
    const entries = [...byCapability].map(([key, names]) => [key, memberUnion(names.map(stringLiteral))] as const);
    file.print(file.jsDoc("Capability key -> the methods it gates (§6, §7)."));
    file.print("export type CapabilityMethods = ", objectType(entries), ";");
    file.print(file.jsDoc("The type at a capability path."));
    file.print(
      [
        "type At<T, P extends readonly string[]> = P extends readonly [infer H extends string, ...infer R extends string[]]",
        "  ? T extends object",
        "    ? H extends keyof T",
        "      ? At<T[H], R>",
        "      : undefined",
        "    : undefined",
        "  : T;",
      ].join("\n"),
    );
    file.print(file.jsDoc("Whether capabilities `C` advertise the path `P`: present and not false (§6)."));
    file.print(
      "type On<C, P extends readonly string[]> = [At<C, P>] extends [undefined | null | false] ? false : true;",
    );
    file.print(file.jsDoc("The methods a server advertising capabilities `C` must implement."));
    const advertised = methods.flatMap((method) => advertisedWhen(method) ?? []);
    // Conditional types in a union take parentheses.
    const members = advertised.length > 1 ? advertised.map((term) => ["(", term, ")"]) : advertised;
    file.print(typeAlias("export type AdvertisedMethods<C>", members));
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
    const options = `options: ${file.runtime("ServerOptionsBase")}<C> & { capabilities: KnownCapabilityKeys<C>; handlers: HandlersFor<C> }`;
    const signatureLine = signature(
      `export function createServer<const C extends ${capabilities}>`,
      [options],
      file.runtime("RcpServer"),
    );
    const protocol = file.import(protocolConstName, file.relative("methods.ts"));
    file.block([signatureLine, " {"], () =>
      file.print(
        `return ${file.runtime("createServerRuntime")}(${protocol}, { ...options, handlers: { ...options.handlers } });`,
      ),
    );
    return [file];
  },
});

/** `On<C, ["index"]> extends true ? (On<C, ["index", "writable"]> ...) : never`: when `C` advertises the method. */
function advertisedWhen(method: RcpMethod): Doc | undefined {
  if (method.capability === null) return undefined;
  const advertises = (path: readonly string[]) => `On<C, [${path.map(stringLiteral).join(", ")}]> extends true`;
  const name = stringLiteral(method.method);
  const check = advertises([method.capability]);
  return conditionalType(
    method.requires === undefined
      ? { check, whenTrue: name, whenFalse: "never" }
      : {
          check,
          whenTrue: { check: advertises(method.requires.split(".")), whenTrue: name, whenFalse: "never" },
          whenFalse: "never",
        },
  );
}
