/**
 * methods.ts: the ProtocolDescriptor (runtime/protocol.ts) of the folder, built with
 * `defineProtocol`: every method's x-rcp annotation and validators, the notifications, the
 * error table, the version, the log levels (least severe first), the `_meta` validator and
 * one validator per shared type role (`registry`).
 */
import { VariableDeclarationKind, type Project } from "ts-morph";
import { docs, GeneratedFile, type EmitSettings } from "./emit-file.js";
import { literal, Reference, type LiteralValue } from "./literal.js";
import type { LoadedSchemaFolder } from "../load/loader.js";
import { metaShape, type Shape } from "../model/shapes.js";

export const protocolConstName = "protocol";

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

  const methods: Record<string, LiteralValue> = {};
  for (const { file: source, method, annotation } of folder.methods) {
    const value = (key: string) => annotation[key] as LiteralValue | undefined;
    methods[method] = {
      method,
      capability: value("capability") ?? null,
      requires: value("requires"),
      beforeInitialize: value("beforeInitialize") ?? false,
      lifecycle: value("lifecycle"),
      streaming: value("streaming") ?? false,
      strictParam: value("strictParam"),
      pagination: value("pagination"),
      aliases: value("aliases") ?? {},
      gates: value("gates") ?? [],
      clamps: value("clamps") ?? [],
      rules: value("rules") ?? [],
      params: validator(source, "/$defs/params"),
      result: validator(source, "/$defs/result"),
      partial: validator(source, "/$defs/partial"),
      spec: value("spec"),
    };
  }
  const notifications: Record<string, LiteralValue> = {};
  for (const { file: source, method, annotation } of folder.notifications)
    notifications[method] = {
      method,
      direction: annotation["direction"] as string,
      params: validator(source, "/$defs/params"),
      role: annotation["role"] as string | undefined,
      spec: annotation["spec"] as string | undefined,
    };
  const errors: Record<string, LiteralValue> = {};
  for (const { code, symbol, message, retryable } of folder.errors)
    errors[String(code)] = { code, symbol, message, retryable };

  const protocolFile = folder.files.get("protocol.json") as {
    description?: string;
    "x-rcp": Record<string, LiteralValue>;
  };
  const logLevels = (folder.files.get("meta.json") as { $defs: { logLevel: { enum: string[] } } }).$defs.logLevel.enum;
  const descriptor: LiteralValue = {
    version: protocolFile["x-rcp"]["version"] as number,
    notificationPrefix: protocolFile["x-rcp"]["notificationPrefix"] as string,
    logLevels,
    methods,
    notifications,
    errors,
    meta: validator(metaShape.file, metaShape.pointer),
    ...Object.fromEntries(
      shapes.flatMap((shape) => (shape.role === undefined ? [] : [[shape.role, validator(shape.file, shape.pointer)]])),
    ),
  };
  file.source.addVariableStatement({
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    docs: docs(protocolFile.description),
    declarations: [
      {
        name: protocolConstName,
        initializer: (writer) => {
          writer.write(`${file.runtime("defineProtocol")}(`);
          const object = literal(descriptor);
          if (typeof object === "string") writer.write(object);
          else object(writer);
          writer.write(")");
        },
      },
    ],
  });
  return file.render();
}
