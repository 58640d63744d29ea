/**
 * ajv's standalone code for many exports (ajv/dist/standalone `standaloneCode(ajv, refs)`),
 * the same text, built in linear time. ajv appends each function to the code so far by copying
 * it (`code = _\`${code}...\``), which is quadratic in the number of functions: 2,000 methods took
 * minutes and then overflowed the stack spreading the copy into an array. Here the pieces are
 * collected in a list and joined once. It walks the same compiled functions in the same order
 * (ajv 8's `source.scopeValues`, `validateName`, `validateCode`, `evaluated`), so the output is
 * byte for byte ajv's; test/generator/validators.test.ts compares the two.
 */
import type { Ajv2020 } from "ajv/dist/2020.js";
import { inlinedHelpers, type InlinedHelper } from "./ajv-helpers.js";

/** What ajv keeps of a compiled function when `code.source` is on (ajv/dist/types SourceCode). */
interface SourceCode {
  validateName: { str: string };
  validateCode: string;
  scopeValues: Record<string, Set<ScopeName> | undefined>;
  evaluated?: unknown;
}

/** A scope name (ajv/dist/compile/codegen/scope ValueScopeName). */
interface ScopeName {
  str: string;
  prefix: string;
  value?: { code?: { toString(): string } | undefined; ref?: unknown };
}

const started = 0;
const completed = 1;

export function standaloneCode(ajv: Ajv2020, refs: Readonly<Record<string, string>>): string {
  const newline = "\n";
  const used = new Map<string, Map<ScopeName | { str: string }, number>>();
  const stateOf = (name: { str: string; prefix?: string }) => used.get(prefixOf(name))?.get(name);
  const setState = (name: { str: string; prefix?: string }, state: number) => {
    const prefix = prefixOf(name);
    const names = used.get(prefix) ?? new Map();
    used.set(prefix, names);
    names.set(name, state);
  };

  const validateCode = (source: SourceCode | undefined): string => {
    if (!source) throw new Error('moduleCode: function does not have "source" property');
    if (stateOf(source.validateName) === completed) return "";
    setState(source.validateName, started);
    const code = `${scopeCode(source.scopeValues)}${newline}${source.validateCode}`;
    // `evaluated` is code already (a JSON literal ajv wrote).
    return source.evaluated
      ? `${code}${source.validateName.str}.evaluated = ${String(source.evaluated)};${newline}`
      : code;
  };

  const refValidateCode = (name: ScopeName): string | undefined => {
    const ref = name.value?.ref;
    if (name.prefix === "validate" && typeof ref == "function")
      return validateCode((ref as { source?: SourceCode }).source);
    if ((name.prefix === "root" || name.prefix === "wrapper") && typeof ref == "object" && ref !== null) {
      const { validate, validateName } = ref as { validate?: { source?: SourceCode }; validateName?: { str: string } };
      if (!validateName) throw new Error("ajv internal error");
      const wrapper = `const ${name.str} = {validate: ${validateName.str}};`;
      if (stateOf(validateName) === started) return wrapper;
      return `${wrapper}${newline}${validateCode(validate?.source)}`;
    }
    return undefined;
  };

  const scopeCode = (values: SourceCode["scopeValues"]): string => {
    const parts: string[] = [];
    for (const prefix in values) {
      const names = values[prefix];
      if (!names) continue;
      const states = used.get(prefix) ?? new Map();
      used.set(prefix, states);
      names.forEach((name) => {
        if (states.has(name)) return;
        states.set(name, started);
        if (name.value === undefined) throw new Error(`CodeGen: name "${name.str}" has no value`);
        const code = name.value.code;
        // As ajv's _reduceValues: a value with code of its own, else a referenced function's code.
        if (code) parts.push(`const ${name.str} = ${String(code)};${newline}`);
        else {
          const referenced = refValidateCode(name);
          if (!referenced) throw new Error(`CodeGen: "code" for ${name.str} not defined`);
          parts.push(`${referenced}${newline}`);
        }
        states.set(name, completed);
      });
    }
    return parts.join("");
  };

  const parts = ['"use strict";'];
  for (const exportName in refs) {
    const validate = ajv.getSchema(refs[exportName]!);
    if (!validate) throw new Error(`moduleCode: no schema with id ${refs[exportName]}`);
    if (!/^[a-z$_][a-z$_0-9]*$/i.test(exportName))
      throw new Error(`CodeGen: invalid export name: ${exportName}, use explicit $id name mapping`);
    const source = validate.source as SourceCode | undefined;
    const code = validateCode(source);
    // Emitted now: another export of the same function (identical shapes) only names it.
    if (source) setState(source.validateName, completed);
    parts.push(`${newline}export const ${exportName} = ${source?.validateName.str};${newline}${code}`);
  }
  return parts.join("");
}

/** ajv keys used names by prefix; a function's own name is a scope name with one. */
function prefixOf(name: { str: string; prefix?: string }): string {
  return name.prefix ?? name.str.replace(/\d+$/, "");
}

const USE_STRICT = '"use strict";';

/**
 * ajv standalone output still `require`s its runtime helpers even in ESM mode (ajv issues
 * 1976, 2209). Generated code must run with the runtime package alone (a server's production
 * install has no ajv), so each helper is emitted in place; a schema needing one rcp-gen does
 * not inline is refused here rather than failing at a user's start-up.
 */
export function esmOnly(code: string): string {
  const helpers = new Set<InlinedHelper>();
  // A slice, not a replace: the rest of megabytes of code is not copied.
  const body = (code.startsWith(USE_STRICT) ? code.slice(USE_STRICT.length) : code).replace(
    /require\("ajv\/dist\/runtime\/(\w+)"\)\.default/g,
    (_match, helper: string) => {
      const inlined = inlinedHelpers[helper];
      if (inlined === undefined)
        throw new Error(
          `the schema needs ajv's runtime helper "${helper}", which generated code cannot carry (inlined: ${Object.keys(inlinedHelpers).join(", ")})`,
        );
      helpers.add(inlined);
      return inlined.name;
    },
  );
  if (body.includes("require(")) throw new Error("ajv standalone code requires a module rcp-gen cannot import as ESM");
  return [...[...helpers].sort((a, b) => (a.name < b.name ? -1 : 1)).map((helper) => helper.code), body].join("\n");
}
