/**
 * validators.js (ajv standalone ESM, one named export per shape plus `message` for a whole
 * frame or batch) and its validators.d.ts. Importing the module compiles no schema.
 */
import standalone from "ajv/dist/standalone/index.js";
import type { Ajv2020 } from "ajv/dist/2020.js";
import { VariableDeclarationKind, type Project } from "ts-morph";
import { messageSchema } from "../model/bundle.js";
import { GeneratedFile, type EmitSettings } from "./emit-file.js";
import { schemaIdBase, SchemaFolderError, type LoadedSchemaFolder } from "../load/loader.js";
import { newFolderAjv } from "../load/schema-ajv.js";
import type { Shape } from "../model/shapes.js";

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
  for (const shape of shapes) if (shape.validatorName) compileLocated(ajv, folder, shape);
  // A CommonJS module: its function is both the default export and its `default` property.
  const code = esmOnly(standalone.default(ajv, exports));
  // ajv's output is machine code; prettier would double its size and take seconds, so it is left as emitted.
  const js = `${settings.banner}\n${code}`;

  const declarations = new GeneratedFile(project, "validators.d.ts", settings);
  const validator = declarations.runtime("Validator");
  // Each validator is a type guard for its shape's type; `message` checks any frame or batch.
  const guarded = new Map(shapes.map((shape) => [shape.validatorName, shape.typeName]));
  declarations.source.addVariableStatements(
    Object.keys(exports).map((name) => {
      const typeName = guarded.get(name);
      const type =
        typeName === undefined ? validator : `${validator}<${declarations.use("./types.js", typeName, true)}>`;
      return {
        isExported: true,
        hasDeclareKeyword: true,
        declarationKind: VariableDeclarationKind.Const,
        declarations: [{ name, type }],
      };
    }),
  );
  return { js, dts: await declarations.render() };
}

/** Compiles one shape so that an ajv compile error (strict mode) names the file and pointer. */
function compileLocated(ajv: Ajv2020, folder: LoadedSchemaFolder, shape: Shape): void {
  try {
    ajv.getSchema(`${folder.idOf(shape.file)}#${shape.pointer}`);
  } catch (error) {
    const message = (error as Error).message;
    const located = new RegExp(`${schemaIdBase.replaceAll(".", "\\.")}([^#"]+)#?([^"\\s]*)`).exec(message);
    const [file, pointer] = located ? [located[1] ?? shape.file, located[2] ?? ""] : [shape.file, shape.pointer];
    throw new SchemaFolderError(file, decodeURIComponent(pointer), message.replaceAll(schemaIdBase, ""));
  }
}

/**
 * ajv standalone output still `require`s its runtime helpers even in ESM mode (ajv issues
 * 1976, 2209); each becomes an ESM import of the same CommonJS module (`.js` for Node ESM).
 * Node hands such an import `module.exports` ({ default: helper }) while bundlers and vitest
 * hand `exports.default`, so the helper is taken from either.
 */
function esmOnly(code: string): string {
  const helpers = new Set<string>();
  const body = code
    .replace(/^"use strict";/, "")
    .replace(/require\("ajv\/dist\/runtime\/(\w+)"\)\.default/g, (_match, helper: string) => {
      helpers.add(helper);
      return `ajvRuntime_${helper}`;
    });
  if (body.includes("require(")) throw new Error("ajv standalone code requires a module rcp-gen cannot import as ESM");
  const imports = [...helpers]
    .sort()
    .flatMap((helper) =>
      inlinedHelpers[helper] !== undefined
        ? [inlinedHelpers[helper]]
        : [
            `import ajvRuntime_${helper}_module from "ajv/dist/runtime/${helper}.js";`,
            `const ajvRuntime_${helper} = ajvRuntime_${helper}_module.default ?? ajvRuntime_${helper}_module;`,
          ],
    );
  return `${imports.join("\n")}\n${body}`;
}

/**
 * Helpers small enough to emit in place: loading a CommonJS module is a measurable share of
 * a server's start-up (issue 6), and string lengths are checked by almost every schema.
 */
const inlinedHelpers: Readonly<Record<string, string>> = {
  // JSON Schema counts string length in code points: a surrogate pair is one character.
  ucs2length: `function ajvRuntime_ucs2length(text) {
  let length = 0;
  for (let index = 0; index < text.length; index++, length++) {
    const unit = text.charCodeAt(index);
    if (unit >= 0xd800 && unit <= 0xdbff && (text.charCodeAt(index + 1) & 0xfc00) === 0xdc00) index++;
  }
  return length;
}`,
};
