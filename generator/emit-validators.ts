/**
 * validators.js (ajv standalone ESM, one named export per shape plus `message` for a whole
 * frame or batch) and its validators.d.ts. Importing the module compiles no schema.
 */
import standalone from "ajv/dist/standalone/index.js";
import { VariableDeclarationKind, type Project } from "ts-morph";
import { messageSchema } from "./bundle.js";
import { GeneratedFile, type EmitSettings } from "./emit-file.js";
import type { LoadedSchemaFolder } from "./loader.js";
import { newFolderAjv } from "./schema-ajv.js";
import type { Shape } from "./shapes.js";

export const messageValidatorName = "message";

export interface EmittedValidators {
  js: string;
  dts: string;
}

export async function emitValidators(
  project: Project,
  settings: EmitSettings,
  folder: LoadedSchemaFolder,
  shapes: readonly Shape[],
): Promise<EmittedValidators> {
  const ajv = newFolderAjv(folder, { code: { source: true, esm: true, lines: true }, inlineRefs: false });
  const message = messageSchema(folder);
  ajv.addSchema(message);
  const exports: Record<string, string> = {};
  for (const shape of shapes)
    if (shape.validatorName) exports[shape.validatorName] = `${folder.idOf(shape.file)}#${shape.pointer}`;
  exports[messageValidatorName] = String(message["$id"]);
  // A CommonJS module: its function is both the default export and its `default` property.
  const code = esmOnly(standalone.default(ajv, exports));
  // ajv's output is machine code; prettier would double its size and take seconds, so it is left as emitted.
  const js = `${settings.banner}\n${code}`;

  const declarations = new GeneratedFile(project, "validators.d.ts", settings);
  const validator = declarations.runtime("Validator");
  declarations.source.addVariableStatements(
    Object.keys(exports).map((name) => ({
      isExported: true,
      hasDeclareKeyword: true,
      declarationKind: VariableDeclarationKind.Const,
      declarations: [{ name, type: validator }],
    })),
  );
  return { js, dts: await declarations.render() };
}

/**
 * ajv standalone output still `require`s its runtime helpers even in ESM mode (ajv issues
 * 1976, 2209); each becomes an ESM import of the same CommonJS module (`.js` for Node ESM).
 */
function esmOnly(code: string): string {
  const helpers = new Map<string, string>();
  const body = code
    .replace(/^"use strict";/, "")
    .replace(/require\("ajv\/dist\/runtime\/(\w+)"\)/g, (_match, helper: string) => {
      const local = `ajvRuntime_${helper}`;
      helpers.set(local, `ajv/dist/runtime/${helper}.js`);
      return local;
    });
  if (body.includes("require(")) throw new Error("ajv standalone code requires a module rcp-gen cannot import as ESM");
  const imports = [...helpers].sort().map(([local, specifier]) => `import ${local} from ${JSON.stringify(specifier)};`);
  return `${imports.join("\n")}\n${body}`;
}
