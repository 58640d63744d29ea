/**
 * validators.ts: ajv's standalone code (`standaloneCode`, one call for every shape's export and
 * `message` for a whole frame or batch), its helpers imported from the runtime (ajv-helpers.ts).
 * Importing it compiles no schema.
 *
 * A TypeScript module rather than `.js` + `.d.ts`, so that every consumer setup picks it up
 * as it picks up the other generated files: plain `tsc` with `outDir` copies no `.js` without
 * `allowJs`, while tsx, esbuild, Vite and `moduleResolution: bundler` all take `.ts`. ajv's
 * output is untyped JavaScript that no set of user compiler flags could be promised to accept
 * (noImplicitAny, noUnusedParameters, ...), so the file opts out of checking with
 * `// @ts-nocheck`; each export carries an explicit `Validator` annotation, which is what
 * importers and declaration emit (isolatedDeclarations too) read.
 *
 * A bundler keeps only the validators an importer reaches: a browser client that calls `retrieve`
 * carries retrieve's, not the other methods' nor the whole-frame `message` validator, plus the few
 * module-level `const patternN = new RegExp(...)` lines ajv writes. That holds while the folder
 * uses neither unevaluatedProperties nor unevaluatedItems (folderAjv): with one of them,
 * ajv gives every function a module-level `validateN.evaluated = ...` and a bundle keeps all of
 * validators.ts, whatever it calls (RCP/1's folder with one unevaluatedProperties added: the
 * one-method client of test/web/bundle.test.ts about doubles, past 40 KB gzipped).
 */
import { absoluteRef, compileAll, folderAjv } from "../load/schema-ajv.js";
import { messageSchema } from "../model/bundle.js";
import { representativeOf } from "../model/shape-identity.js";
import { validationKey } from "../model/validation-key.js";
import type { RcpModel } from "../model/model.js";
import { targetCode } from "./builtin.js";
import type { RuntimeSymbol } from "@rcp-gen/runtime/codegen-symbols";
import { helperImports, validatorModule } from "./shared/ajv-helpers.js";

export const messageValidatorName = "message";

export const validatorsTarget = targetCode({
  generate(context) {
    // ajv's output is machine code, left as ajv printed it: laid out, it would be twice the size and no easier to read.
    const file = context.newFile("validators.ts", { format: false });
    file.print(validatorsCode(context.model, (symbol) => file.runtimeModule(symbol)));
    return [file];
  },
});

/** The last run's code, for the next run of this process (--watch) when nothing a validator checks changed. */
let previous: { key: string; code: string } | undefined;

function validatorsCode(model: RcpModel, moduleOf: (symbol: RuntimeSymbol) => string): string {
  const key = [
    validationKey(model.schema),
    moduleOf("Validator"),
    ...model.shapes.map((shape) => `${shape.validatorName}:${shape.typeName}:${shape.ref}`),
  ].join("\n");
  if (previous?.key !== key) previous = { key, code: compiledCode(model, moduleOf) };
  return previous.code;
}

function compiledCode(model: RcpModel, moduleOf: (symbol: RuntimeSymbol) => string): string {
  const folder = model.schema;
  const ajv = folderAjv(folder);
  const exports: Record<string, string> = {};
  // Shapes a validator checks identically share the first one's function (shape-identity.ts).
  const compiled = new Set<string>();
  for (const shape of model.shapes)
    if (shape.validatorName) {
      const representative = representativeOf(folder, shape.ref);
      compiled.add(representative);
      exports[shape.validatorName] = absoluteRef(folder, representative);
    }
  // First, so that a schema ajv refuses is reported with its file and pointer.
  compileAll(folder, compiled);
  const message = messageSchema(model.schema, { shared: true });
  ajv.removeSchema(String(message["$id"]));
  ajv.addSchema(message);
  exports[messageValidatorName] = String(message["$id"]);
  const guarded = new Map<string, string>();
  for (const shape of model.shapes) if (shape.validatorName) guarded.set(shape.validatorName, shape.typeName);
  const { code, helpers } = validatorModule(ajv, exports);
  const typeNames = [...new Set(guarded.values())].sort();
  return [
    "// @ts-nocheck: ajv's standalone output below is plain JavaScript; each export is typed Validator.",
    `import type { StandardValidator, Validator } from ${JSON.stringify(moduleOf("Validator"))};`,
    ...helperImports([...helpers, "standardValidator" as const].sort(), moduleOf),
    `import type { ${typeNames.join(", ")} } from "./types.js";`,
    typedExports(code, guarded).trimEnd(),
  ].join("\n");
}

/**
 * `export const retrieveParams = validate12;` ->
 * `export const retrieveParams: StandardValidator<RetrieveParams> = standardValidator(validate12);`:
 * each validator is a type guard for its shape's type and a Standard Schema of it; `message`
 * checks any frame or batch. Each call is marked `@__PURE__`, so that a bundler still drops
 * the validators nobody imports.
 */
function typedExports(code: string, guarded: ReadonlyMap<string, string>): string {
  return code.replace(/^export const (\w+) = (\w+);$/gm, (_line, name: string, validate: string) => {
    const typeName = guarded.get(name);
    return typeName === undefined
      ? `export const ${name}: Validator = ${validate};`
      : `export const ${name}: StandardValidator<${typeName}> = /* @__PURE__ */ standardValidator(${validate});`;
  });
}
