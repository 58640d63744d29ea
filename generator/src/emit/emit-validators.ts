/**
 * validators.ts: ajv's standalone code for one named export per shape, plus `message` for a
 * whole frame or batch. Importing it compiles no schema.
 *
 * A TypeScript module rather than `.js` + `.d.ts`, so that every consumer setup picks it up
 * as it picks up the other generated files: plain `tsc` with `outDir` copies no `.js` without
 * `allowJs`, while tsx, esbuild, Vite and `moduleResolution: bundler` all take `.ts`. ajv's
 * output is untyped JavaScript that no set of user compiler flags could be promised to accept
 * (noImplicitAny, noUnusedParameters, ...), so the file opts out of checking with
 * `// @ts-nocheck`; each export carries an explicit `Validator` annotation, which is what
 * importers and declaration emit (isolatedDeclarations too) read.
 *
 * Free of module-level side effects (sideEffectFree), so a bundler keeps only the validators
 * an importer reaches: a browser client that calls `retrieve` carries retrieve's, not the
 * other methods' nor the whole-frame `message` validator.
 */
import { compileAll } from "../load/compile-all.js";
import { absoluteRef, folderAjv } from "../load/loader.js";
import { messageSchema } from "../model/bundle.js";
import { representativeOf } from "../model/shape-identity.js";
import { validationKey } from "../model/validation-key.js";
import type { RcpModel } from "../model/model.js";
import { definePlugin } from "../plugin/plugin.js";
import { esmOnly, standaloneCode } from "./ajv-standalone.js";

export const messageValidatorName = "message";

export const validatorsTarget = definePlugin({
  name: "validators",
  async generate({ model, newFile }) {
    // ajv's output is machine code; prettier would double its size and take seconds, so it is left as emitted.
    const file = newFile("validators.ts", { format: false });
    file.print(await validatorsCode(model, file.runtimeModule("Validator")));
    return [file];
  },
});

/** The last run's code, for the next run of this process (--watch) when nothing a validator checks changed. */
let previous: { key: string; code: string } | undefined;

async function validatorsCode(model: RcpModel, validatorModule: string): Promise<string> {
  const key = [
    validationKey(model.schema),
    validatorModule,
    ...model.shapes.map((shape) => `${shape.validatorName}:${shape.typeName}:${shape.ref}`),
  ].join("\n");
  if (previous?.key !== key) previous = { key, code: await compiledCode(model, validatorModule) };
  return previous.code;
}

async function compiledCode(model: RcpModel, validatorModule: string): Promise<string> {
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
  await compileAll(folder, compiled);
  const message = messageSchema(model.schema, { shared: true });
  ajv.removeSchema(String(message["$id"]));
  ajv.addSchema(message);
  exports[messageValidatorName] = String(message["$id"]);
  const guarded = new Map<string, string>();
  for (const shape of model.shapes) if (shape.validatorName) guarded.set(shape.validatorName, shape.typeName);
  const code = typedExports(sideEffectFree(esmOnly(standaloneCode(ajv, exports))), guarded);
  const typeNames = [...new Set(guarded.values())].sort();
  return [
    "// @ts-nocheck: ajv's standalone output below is plain JavaScript; each export is typed Validator.",
    `import type { Validator } from ${JSON.stringify(validatorModule)};`,
    `import type { ${typeNames.join(", ")} } from "./types.js";`,
    // Not a regular expression: on megabytes of code, `/\n$/` tries every line break.
    code.endsWith("\n") ? code.slice(0, -1) : code,
  ].join("\n");
}

/**
 * `export const retrieveParams = validate12;` -> `export const retrieveParams: Validator<RetrieveParams> = validate12;`:
 * each validator is a type guard for its shape's type; `message` checks any frame or batch.
 */
function typedExports(code: string, guarded: ReadonlyMap<string, string>): string {
  return code.replace(/^export const (\w+) = (\w+);$/gm, (_line, name: string, validate: string) => {
    const typeName = guarded.get(name);
    return `export const ${name}: Validator${typeName === undefined ? "" : `<${typeName}>`} = ${validate};`;
  });
}

/**
 * ajv attaches `evaluated` (what a subschema evaluated, for unevaluatedProperties) to each
 * validator function with a module-level assignment, a side effect that keeps every validator in
 * every bundle. Each becomes a constant of its own (`validate12_evaluated`), which bundlers drop
 * with the function when nothing reaches it; a RegExp construction is marked pure for the same
 * reason. The schema objects ajv keeps beside its code are dropped unless an error message
 * quotes them: that is text a server would parse at every start-up for nothing.
 */
function sideEffectFree(code: string): string {
  // One pass over what may be megabytes: the assignment at a line's start, any other mention, a RegExp.
  const separate = code.replace(
    /^(validate\d+)\.evaluated = |\b(validate\d+)\.evaluated\b|^(const pattern\d+ = )new RegExp\(/gm,
    (_match, assigned?: string, mentioned?: string, pattern?: string) =>
      assigned !== undefined
        ? `const ${assigned}_evaluated = `
        : mentioned !== undefined
          ? `${mentioned}_evaluated`
          : `${pattern}/* @__PURE__ */ new RegExp(`,
  );
  const uses = new Map<string, number>();
  for (const [name] of separate.matchAll(/\bschema\d+\b/g)) uses.set(name, (uses.get(name) ?? 0) + 1);
  // Used once means only declared.
  return separate.replace(/^const (schema\d+) = .*;\n/gm, (line, name: string) => (uses.get(name) === 1 ? "" : line));
}
