/**
 * methods.ts: the ProtocolDescriptor (runtime/protocol.ts) of the folder (model/descriptor.ts),
 * built with `defineProtocol` and referring to the precompiled validators of validators.ts.
 */
import { descriptorData } from "../model/descriptor.js";
import { definePlugin } from "../plugin/plugin.js";
import { literal, Reference, type LiteralValue } from "./literal.js";

export const protocolConstName = "protocol";

export const methodsTarget = definePlugin({
  name: "methods",
  generate({ model, newFile }) {
    const file = newFile("methods.ts");
    const validators = file.relative("validators.ts");
    const descriptor = descriptorData(model, (shape) =>
      shape.validatorName ? new Reference(file.import(shape.validatorName, validators)) : undefined,
    );
    file.print("");
    file.print(
      file.jsDoc(
        `The ${model.title} protocol descriptor: every method and notification with its validators, gates, clamps and rules, the error table and the log levels. The runtime reads only this.`,
      ),
    );
    file.print(
      `export const ${protocolConstName} = ${file.runtime("defineProtocol")}(${literal(descriptor as unknown as LiteralValue)});`,
    );
    return [file];
  },
});
