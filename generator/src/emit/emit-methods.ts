/**
 * methods.ts: the ProtocolDescriptor (runtime/protocol.ts) of the folder (model/descriptor.ts),
 * built with `defineProtocol` and referring to the precompiled validators of validators.ts.
 *
 * Laid out so that a bundler keeps only what an importer reaches: one call descriptor per method
 * (`retrieveCall`: what a client reads, with its result and partial validators), the lifecycle
 * part every client speaks (`clientProtocol`), and the whole `protocol` under a pure
 * `defineProtocol`. A browser client naming `[retrieveCall]` (connectHttpWith) then carries
 * neither the other methods' validators nor any params validator. Objects refer to each other by
 * name only: a bundler must assume that a spread or a property read runs code, and would keep the
 * whole protocol for it, so each method's call members are written again in its server descriptor.
 */
import { VariableDeclarationKind, type Project } from "ts-morph";
import { docs, GeneratedFile, type EmitSettings } from "./emit-file.js";
import { literal, Reference, writeValue, type LiteralValue } from "./literal.js";
import type { LoadedSchemaFolder } from "../load/loader.js";
import { descriptorData } from "../model/descriptor.js";
import { camelName } from "../model/naming.js";
import type { Shape } from "../model/shapes.js";

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
  "idempotent",
  "result",
  "partial",
  "spec",
]);

/** methods.ts's export of `method`'s call descriptor, e.g. `retrieveCall`, `indexAddCall`. */
export function callConstName(method: string): string {
  return `${camelName(method)}Call`;
}

export function emitMethods(
  project: Project,
  settings: EmitSettings,
  folder: LoadedSchemaFolder,
  shapes: readonly Shape[],
): Promise<string> {
  const file = new GeneratedFile(project, "methods.ts", settings);
  const validator = (source: string, pointer: string): Reference | undefined => {
    const shape = shapes.find((candidate) => candidate.file === source && candidate.pointer === pointer);
    return shape?.validatorName ? new Reference(file.use("./validators.js", shape.validatorName, false)) : undefined;
  };
  const { description, methods, notifications, errors, version, notificationPrefix, logLevels, ...wholeOnly } =
    descriptorData(folder, validator);
  // Module-local, shared by clientProtocol and protocol by name.
  addConst(file, { name: "notificationDescriptors", value: notifications as LiteralValue, suffix: " as const" });
  addConst(file, { name: "errorDescriptors", value: errors as LiteralValue, suffix: " as const" });
  const shared = { notifications: new Reference("notificationDescriptors"), errors: new Reference("errorDescriptors") };

  const lifecycle: Record<string, LiteralValue> = {};
  for (const { method, file: source, annotation } of folder.methods) {
    const call = callConstName(method);
    const callPart = Object.fromEntries(Object.entries(methods[method]!).filter(([key]) => CALL_MEMBERS.has(key)));
    const use =
      annotation["lifecycle"] === undefined
        ? `connectHttpWith([${call}], ...) keeps only its validators in a bundle`
        : `every client speaks it (${clientProtocolConstName})`;
    const summary = (folder.files.get(source) as { description?: unknown }).description;
    addConst(file, {
      name: call,
      exported: true,
      value: callPart as LiteralValue,
      suffix: ` as const satisfies ${file.runtime("CallDescriptor")}`,
      docs: [summary, `What a client needs to call \`${method}\`; ${use}.`],
    });
    if (annotation["lifecycle"] !== undefined) lifecycle[method] = new Reference(call);
  }
  addConst(file, {
    name: clientProtocolConstName,
    exported: true,
    value: { version, notificationPrefix, logLevels, methods: lifecycle, ...shared } as LiteralValue,
    suffix: ` as const satisfies ${file.runtime("ClientProtocol")}`,
    docs: [
      "What every client speaks: versions, lifecycle methods, notifications and errors; connectHttpWith adds the calls it is given.",
    ],
  });
  const whole = { version, notificationPrefix, logLevels, methods, ...shared, ...wholeOnly } as LiteralValue;
  addConst(file, {
    name: protocolConstName,
    exported: true,
    value: whole,
    prefix: `/* @__PURE__ */ ${file.runtime("defineProtocol")}(`,
    suffix: ")",
    docs: [description],
  });
  return file.render();
}

interface ConstDeclaration {
  name: string;
  value: LiteralValue;
  exported?: boolean;
  /** Code written right before and right after the literal. */
  prefix?: string;
  suffix?: string;
  /** Paragraphs of its doc comment; non-strings are left out. */
  docs?: unknown[];
}

function addConst(file: GeneratedFile, declaration: ConstDeclaration): void {
  const paragraphs = (declaration.docs ?? []).filter((text): text is string => typeof text === "string");
  file.source.addVariableStatement({
    isExported: declaration.exported ?? false,
    declarationKind: VariableDeclarationKind.Const,
    docs: docs(paragraphs.join("\n\n")),
    declarations: [
      {
        name: declaration.name,
        initializer: (writer) => {
          writer.write(declaration.prefix ?? "");
          writeValue(writer, literal(declaration.value));
          writer.write(declaration.suffix ?? "");
        },
      },
    ],
  });
}
