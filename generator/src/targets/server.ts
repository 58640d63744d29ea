/**
 * server.ts: the handler interface (wire names as keys, lifecycle methods excluded: the
 * runtime answers them), which methods capabilities `C` advertise, `HandlersFor<C>` making
 * their handlers required, and a typed `createServer`. The generic parts are the runtime's
 * (`RequireHandlers`, `KnownCapabilityKeys`).
 */
import { userMethods, type RcpMethod } from "../model/model.js";
import { targetCode } from "./builtin.js";
import { protocolConstName } from "./methods.js";
import { propertyName } from "./shared/literal.js";
import { methodTypes } from "./shared/method-types.js";

export const serverTarget = targetCode({
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
    file.block("export interface RcpHandlers {", () => {
      for (const method of methods) {
        const types = methodTypes(file, method);
        file.print(file.jsDoc(method.description, { spec: method.spec, from: method.file }));
        file.print(`${propertyName(method.method)}?: ${handler}<${types.params}, ${types.result}, ${types.partial}>;`);
      }
    });
    file.print("");

    file.print(file.jsDoc("The methods a server advertising capabilities `C` must implement."));
    const advertised = methods.flatMap((method) => advertisedWhen(method, file.runtime("Advertises")) ?? []);
    file.print(`type AdvertisedMethods<C> = ${advertised.map((term) => `(${term})`).join(" | ") || "never"};`);
    file.print(file.jsDoc("Handlers for capabilities `C`: every advertised method's handler is required."));
    file.print(`export type HandlersFor<C> = ${file.runtime("RequireHandlers")}<RcpHandlers, AdvertisedMethods<C>>;`);
    const capabilities = file.import("ServerCapabilities", file.relative("types.ts"), { typeOnly: true });
    file.print("");
    file.print(
      file.jsDoc(
        "A server for this protocol; advertising a capability without its handlers, or a misspelt one, does not compile.",
      ),
    );
    const options = `options: ${file.runtime("ServerOptionsBase")}<C> & { capabilities: ${file.runtime("KnownCapabilityKeys")}<C, ${capabilities}>; handlers: HandlersFor<C> }`;
    const protocol = file.import(protocolConstName, file.relative("methods.ts"));
    file.block(
      `export function createServer<const C extends ${capabilities}>(${options}): ${file.runtime("RcpServer")} {`,
      () =>
        file.print(
          `return ${file.runtime("createServerRuntime")}(${protocol}, { ...options, handlers: { ...options.handlers } });`,
        ),
    );
    return [file];
  },
});

/** `Advertises<C, ["index"]> extends true ? (Advertises<C, ["index", "writable"]> ...) : never`: when `C` advertises the method. */
function advertisedWhen(method: RcpMethod, advertises: string): string | undefined {
  if (method.capability === null) return undefined;
  const when = (path: readonly string[]) =>
    `${advertises}<C, [${path.map((key) => JSON.stringify(key)).join(", ")}]> extends true`;
  const name = JSON.stringify(method.method);
  const whenTrue = method.requires === undefined ? name : `(${when(method.requires.split("."))} ? ${name} : never)`;
  return `${when([method.capability])} ? ${whenTrue} : never`;
}
