/**
 * methods.ts: the ProtocolDescriptor (runtime/protocol.ts) of the folder (model/descriptor.ts),
 * a literal referring to the precompiled validators of validators.ts.
 *
 * Each method is stated once, as its call descriptor (`retrieveCall`: what a client reads, with
 * its result and partial validators); the lifecycle part every client speaks (`clientProtocol`)
 * names those of the lifecycle methods, and the whole `protocol` builds each method's descriptor
 * from its call descriptor plus what the server checks (`methodDescriptor`). Those calls are
 * marked `@__PURE__`, so the module stays free of side effects: a browser client naming
 * `[retrieveCall]` (connectHttpWith) carries neither the other methods' validators nor any
 * params validator. A spread instead of the call would keep the whole protocol in that bundle:
 * a bundler must assume that a spread runs code.
 */
import { addedErrors, descriptorData } from "../model/descriptor.js";
import type { GeneratedFile } from "../plugin/generated-file.js";
import type { ErrorDescriptor } from "@rcp-gen/runtime";
import { targetCode } from "./builtin.js";
import { literal, propertyName, Reference, type LiteralValue } from "./shared/literal.js";

export const protocolConstName = "protocol";
export const clientProtocolConstName = "clientProtocol";

/** The members of a method's descriptor a client reads (runtime CallDescriptor); the rest only the server does. */
const CALL_MEMBERS = new Set([
  "method",
  "capability",
  "requires",
  "beforeInitialize",
  "lifecycle",
  "streaming",
  "pagination",
  // The client's retry policy repeats only the calls marked safe to repeat (§7.10).
  "idempotent",
  "result",
  "partial",
  "spec",
]);

/** methods.ts's export of `method`'s call descriptor, e.g. `retrieveCall`, `indexAddCall`. */
export function callConstName(camelName: string): string {
  return `${camelName}Call`;
}

export const methodsTarget = targetCode({
  generate({ model, newFile }) {
    const file = newFile("methods.ts");
    const validators = file.relative("validators.ts");
    // The error table is written as the runtime's plus what the folder adds (errorTable), not in full.
    const { methods, notifications, errors, version, notificationPrefix, logLevels, ...wholeOnly } = descriptorData(
      model,
      (shape) => (shape.validatorName ? new Reference(file.import(shape.validatorName, validators)) : undefined),
    );
    const constant = (declaration: string, value: LiteralValue, suffix = "") =>
      file.print(`${declaration} = `, literal(value), `${suffix};`);
    // Module-local, shared by clientProtocol and protocol by name.
    file.print("");
    constant("const notificationDescriptors", notifications, " as const");
    const shared = {
      notifications: new Reference("notificationDescriptors"),
      errors: new Reference(errorTable(file, addedErrors(model))),
    };

    const lifecycle: Record<string, LiteralValue> = {};
    const whole: Record<string, LiteralValue> = {};
    for (const method of model.methods) {
      const call = callConstName(method.camelName);
      const entries = Object.entries(methods[method.method]!);
      const callPart = Object.fromEntries(entries.filter(([key]) => CALL_MEMBERS.has(key)));
      const checks = Object.fromEntries(entries.filter(([key]) => !CALL_MEMBERS.has(key)));
      const summary = method.description === undefined ? "" : `${method.description}\n\n`;
      const use =
        method.lifecycle === undefined
          ? `connectHttpWith([${call}], ...) keeps only its validators in a bundle`
          : `every client speaks it (${clientProtocolConstName})`;
      file.print(
        file.jsDoc(`${summary}What a client needs to call \`${method.method}\`; ${use}.`, { from: method.file }),
      );
      constant(
        `${method.lifecycle === undefined ? "export " : ""}const ${call}`,
        callPart as LiteralValue,
        ` as const satisfies ${file.runtime("CallDescriptor")}`,
      );
      if (method.lifecycle !== undefined) lifecycle[method.method] = new Reference(call);
      whole[method.method] = new Reference(
        `/* @__PURE__ */ ${file.runtime("methodDescriptor")}(${call}, ${literal(checks as LiteralValue)})`,
      );
    }
    file.print(
      file.jsDoc(
        "What every client speaks: versions, lifecycle methods, notifications and errors; connectHttpWith adds the calls it is given.",
      ),
    );
    constant(
      `export const ${clientProtocolConstName}`,
      { version, notificationPrefix, logLevels, methods: lifecycle, ...shared },
      ` as const satisfies ${file.runtime("ClientProtocol")}`,
    );
    file.print(
      file.jsDoc(
        `The ${model.title} protocol descriptor: every method and notification with its validators, gates, clamps and rules, the error table and the log levels. The runtime reads only this.`,
      ),
    );
    const descriptor = {
      version,
      notificationPrefix,
      logLevels,
      methods: whole,
      ...shared,
      ...wholeOnly,
    } as LiteralValue;
    constant(
      `export const ${protocolConstName}`,
      descriptor,
      ` as const satisfies ${file.runtime("ProtocolDescriptor")}`,
    );
    return [file];
  },
});

/**
 * The name of the protocol's error table: the runtime's `rcpErrors` itself, or, when the folder
 * adds codes of its own, a module-local table written here of RCP/1's codes and those. A bundler
 * keeps that spread even unread, which costs nothing: every client reads the table (clientProtocol).
 */
function errorTable(file: GeneratedFile, added: Readonly<Record<string, ErrorDescriptor>>): string {
  const standard = file.runtime("rcpErrors");
  if (Object.keys(added).length === 0) return standard;
  file.print(`const errorDescriptors = {\n...${standard},`);
  for (const [code, error] of Object.entries(added)) file.print(`${propertyName(code)}: `, literal({ ...error }), ",");
  file.print("} as const;");
  return "errorDescriptors";
}
