/**
 * methods.ts: the ProtocolDescriptor (runtime/protocol.ts) of the folder (model/descriptor.ts),
 * built with `defineProtocol` and referring to the precompiled validators of validators.ts.
 */
import { VariableDeclarationKind, type Project } from "ts-morph";
import { docs, GeneratedFile, type EmitSettings } from "./emit-file.js";
import { literal, Reference, type LiteralValue } from "./literal.js";
import type { LoadedSchemaFolder } from "../load/loader.js";
import { descriptorData } from "../model/descriptor.js";
import type { Shape } from "../model/shapes.js";

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

  const { description, ...descriptor } = descriptorData(folder, validator);
  file.source.addVariableStatement({
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    docs: docs(description),
    declarations: [
      {
        name: protocolConstName,
        initializer: (writer) => {
          writer.write(`${file.runtime("defineProtocol")}(`);
          const object = literal(descriptor as unknown as LiteralValue);
          if (typeof object === "string") writer.write(object);
          else object(writer);
          writer.write(")");
        },
      },
    ],
  });
  return file.render();
}
