/**
 * ajv turns each function it compiles into a live one at once (`new Function` over its code),
 * and V8 scans all that code as it does. A run of rcp-gen mostly wants the code itself, as text
 * for validators.ts (`validate.source`), and calls few of the functions: for 2,000 methods,
 * scanning the 80 MB that nothing calls took seconds. Through ajv's `code.process` hook, each
 * function is now made live on its first call instead, from the very code ajv would have run.
 *
 * ajv keeps the function it gets back (the stand-in below) as the one other compiled code
 * calls and as the one it sets `schema`, `schemaEnv` and `evaluated` on; the live function sets
 * `errors` on itself and reads `evaluated` from itself, so the two share `evaluated` and the
 * stand-in copies `errors` after each call.
 */
import type { Options, ValidateFunction } from "ajv/dist/2020.js";

/** The property of the ajv instance that a stand-in's code reaches (ajv passes it as `self`). */
const MAKE_LIVE = "rcpGenDeferredValidator";

type CodeOptions = NonNullable<Options["code"]>;

export interface DeferredValidators {
  /** ajv's `code.process`: the code ajv will run instead of the function's own. */
  process: NonNullable<CodeOptions["process"]>;
  /** Gives an ajv made with `process` what the stand-ins call. */
  install(ajv: object): void;
}

export function deferredValidators(): DeferredValidators {
  const sources: string[] = [];
  let printed: ValidateFunction[] = [];
  const flattenPrinted = () => {
    for (const validate of printed)
      if (validate.source) validate.source.validateCode = flat(validate.source.validateCode);
    printed = [];
  };
  return {
    process(sourceCode) {
      sources.push(flat(sourceCode));
      return `return self.${MAKE_LIVE}(${sources.length - 1}, self, scope);`;
    },
    install(ajv) {
      Object.defineProperty(ajv, MAKE_LIVE, {
        value: (index: number, self: unknown, scope: unknown) => {
          const validate = standIn(sources[index]!, self, scope);
          // ajv sets `source` once this returns, and compiles on synchronously.
          if (printed.push(validate) === 1) queueMicrotask(flattenPrinted);
          return validate;
        },
      });
    },
  };
}

/**
 * ajv builds code by concatenation, so each function's text is a tree of thousands of small
 * strings until something reads it whole, several times the size of the text. Kept as trees
 * until validators.ts is printed, they were most of what the garbage collector copied.
 * Converting a string to a number makes V8 store it as one piece.
 */
function flat(text: string): string {
  void Number(text);
  return text;
}

function standIn(sourceCode: string, self: unknown, scope: unknown): ValidateFunction {
  let live: ValidateFunction | undefined;
  const validate = function (this: unknown, ...args: unknown[]) {
    if (live === undefined) {
      live = new Function("self", "scope", sourceCode)(self, scope) as ValidateFunction;
      // Shared, not copied: a function with dynamic `unevaluated*` writes into it.
      live.evaluated = validate.evaluated;
    }
    const valid = (live as (...args: unknown[]) => unknown).apply(this, args);
    validate.errors = live.errors;
    return valid;
  } as ValidateFunction;
  return validate;
}
