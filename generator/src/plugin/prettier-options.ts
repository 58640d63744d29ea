/**
 * The prettier options generated TypeScript is formatted with: the user's, resolved from the
 * output folder as prettier itself would (a `.prettierrc` or package.json's `"prettier"` key),
 * so generated code reads in the project's style; the generator's own defaults when there is
 * none. Only options: a config's plugins are not loaded (they could change the output in ways a
 * run cannot record). The options used are recorded in manifest.json (manifest.ts).
 */
import { join } from "node:path";
import type { Options } from "prettier";
import type * as Prettier from "prettier";

/** Used when the output folder has no prettier config. */
export const defaultPrettierOptions: PrettierOptions = { printWidth: 120, trailingComma: "all", endOfLine: "lf" };

/** Prettier's formatting options, without parser, plugins or overrides: what manifest.json records. */
export type PrettierOptions = Readonly<Record<string, unknown>>;

/** The options a file in `outputFolder` is formatted with; the defaults without a folder (an in-memory run) or a config. */
export async function resolvePrettierOptions(outputFolder: string | undefined): Promise<PrettierOptions> {
  if (outputFolder === undefined) return defaultPrettierOptions;
  const prettier = await loadPrettier();
  // A file name in the folder, so that a config's overrides for *.ts apply.
  const found = await prettier.resolveConfig(join(outputFolder, "index.ts"), { useCache: false });
  if (found === null) return defaultPrettierOptions;
  const {
    plugins: _plugins,
    parser: _parser,
    overrides: _overrides,
    filepath: _filepath,
    ...options
  } = found as Options & {
    overrides?: unknown;
  };
  return options;
}

/** `text` formatted as TypeScript with `options`. */
export async function formatTypeScript(text: string, options: PrettierOptions): Promise<string> {
  const prettier = await loadPrettier();
  // babel-ts prints generated TypeScript as the typescript parser does, and is the smaller parser to load.
  return prettier.format(text, { ...options, parser: "babel-ts" });
}

let prettierModule: Promise<typeof Prettier> | undefined;

/** prettier, loaded on first use: a run that formats nothing (JSON and Markdown targets only) never loads it. */
function loadPrettier(): Promise<typeof Prettier> {
  prettierModule ??= import("prettier");
  return prettierModule;
}
