/**
 * ajv's standalone code, as ajv prints it, made importable without ajv: in ESM mode it still
 * `require`s its runtime helpers (ajv issues 1976, 2209), and a server's production install has
 * no ajv. Each helper is imported from the runtime package instead, which carries the same
 * function for JSON values; a schema needing a helper the runtime lacks is refused here rather
 * than failing at a user's start-up.
 */
import type { Ajv2020 } from "ajv/dist/2020.js";
import standalone from "ajv/dist/standalone/index.js";
import type { RuntimeSymbol } from "@rcp-gen/runtime/codegen-symbols";

/** ajv's helper (its file in `ajv/dist/runtime/`) -> the runtime's function that stands in for it. */
const runtimeHelpers: Readonly<Record<string, RuntimeSymbol>> = {
  ucs2length: "codePointLength",
  equal: "jsonEqual",
};

export interface ValidatorModule {
  /** ajv's code with each helper `require` replaced by the helper's name. */
  readonly code: string;
  /** The runtime symbols the code uses, sorted: the module imports them. */
  readonly helpers: readonly RuntimeSymbol[];
}

/**
 * ajv's `standaloneCode` for `exports` (export name -> schema id), its helpers taken from the
 * runtime. ajv writes a function once per export that names it, so a second export of the same
 * function (two shapes a validator checks identically) would declare it twice: ajv exports the
 * first name, and each other is written after ajv's code as ajv writes an export.
 */
export function validatorModule(ajv: Ajv2020, exports: Readonly<Record<string, string>>): ValidatorModule {
  const exported = new Set<unknown>();
  const distinct: Record<string, string> = {};
  const aliases: string[] = [];
  for (const [name, id] of Object.entries(exports)) {
    const validate = ajv.getSchema(id);
    if (!exported.has(validate)) {
      exported.add(validate);
      distinct[name] = id;
    } else aliases.push(`export const ${name} = ${String(validate?.source?.validateName)};`);
  }
  const helpers = new Set<RuntimeSymbol>();
  const code = standalone
    .default(ajv, distinct)
    .replace(/require\("ajv\/dist\/runtime\/(\w+)"\)\.default/g, (_match, helper: string) => {
      const symbol = runtimeHelpers[helper];
      if (symbol === undefined)
        throw new Error(
          `the schema needs ajv's runtime helper "${helper}", which generated code cannot import (it can: ${Object.keys(runtimeHelpers).join(", ")})`,
        );
      helpers.add(symbol);
      return symbol;
    });
  if (code.includes("require(")) throw new Error("ajv standalone code requires a module rcp-gen cannot import as ESM");
  return { code: [code.trimEnd(), ...aliases].join("\n"), helpers: [...helpers].sort() };
}

/** The import lines of `helpers`, one per runtime module. */
export function helperImports(
  helpers: readonly RuntimeSymbol[],
  moduleOf: (symbol: RuntimeSymbol) => string,
): string[] {
  const byModule = new Map<string, RuntimeSymbol[]>();
  for (const helper of helpers) byModule.set(moduleOf(helper), [...(byModule.get(moduleOf(helper)) ?? []), helper]);
  return [...byModule].map(([module, names]) => `import { ${names.join(", ")} } from ${JSON.stringify(module)};`);
}
