/** One rcp-gen run: load the schema folder and the plugins, generate in memory, then write or check. */
import { readExamples } from "../targets/shared/examples.js";
import { generate } from "../plugin/run-plugins.js";
import { loadPlugin } from "../plugin/load-plugin.js";
import { defaultRuntimeEntry } from "@rcp-gen/runtime/codegen-symbols";
import { loadSchemaFolder } from "../load/loader.js";
import { requireEsmFolder } from "./esm-only.js";
import { compareOutputFolder, writeOutputFolder, type OutputDifference } from "./output-folder.js";
import { regenerateCommand } from "./banner-command.js";

export { regenerateCommand } from "./banner-command.js";

/** What `runOnce` generates, and where. */
export interface RunOptions {
  schema: string;
  out: string;
  /** Import specifier of the runtime entry; defaults to the published `@rcp-gen/runtime/codegen`. */
  runtime?: string;
  check: boolean;
  /** The command quoted in banners; default: the flags that reproduce this run (regenerateCommand). */
  command?: string;
  /** Built-in targets; default: the TypeScript modules and the bundle. */
  targets?: readonly string[];
  /** Paths of ESM plugin modules. */
  plugins?: readonly string[];
  /** A folder of examples for the docs targets. */
  examples?: string;
  /** The modules generated: TypeScript (`ts`, the default) or JavaScript with declarations (`js`). */
  moduleFormat?: "ts" | "js";
}

/** What `runOnce` did: the files written, or the differences found under `check`. */
export type RunReport =
  | {
      kind: "written";
      files: { name: string; bytes: number }[];
      methods: number;
      notifications: number;
      milliseconds: number;
    }
  | { kind: "checked"; differences: OutputDifference[]; milliseconds: number };

/** One generation, as the command line runs it: load the folder, generate, then write the output folder or compare it (`check`). */
export async function runOnce(options: RunOptions): Promise<RunReport> {
  const started = performance.now();
  requireEsmFolder(options.out);
  const folder = loadSchemaFolder(options.schema);
  const plugins = await Promise.all((options.plugins ?? []).map(loadPlugin));
  const files = await generate(folder, {
    runtimeSpecifier: options.runtime ?? defaultRuntimeEntry,
    command: options.command ?? regenerateCommand(options),
    ...(options.targets === undefined ? {} : { targets: options.targets }),
    plugins,
    outputFolder: options.out,
    ...(options.examples === undefined ? {} : { examples: readExamples(options.examples) }),
    ...(options.moduleFormat === undefined ? {} : { moduleFormat: options.moduleFormat }),
  });
  if (options.check)
    return {
      kind: "checked",
      differences: compareOutputFolder(options.out, files),
      milliseconds: performance.now() - started,
    };
  writeOutputFolder(options.out, files);
  return {
    kind: "written",
    files: [...files].map(([name, content]) => ({ name, bytes: Buffer.byteLength(content) })),
    methods: folder.methods.length,
    notifications: folder.notifications.length,
    milliseconds: performance.now() - started,
  };
}
