/** One rcp-gen run: load the schema folder, generate in memory, then write or check. */
import { generate } from "../plugin/generate.js";
import { defaultRuntimeEntry } from "@rcp-gen/runtime/codegen-symbols";
import { loadSchemaFolder } from "../load/loader.js";
import { requireEsmFolder } from "./esm-only.js";
import { compareOutputFolder, writeOutputFolder, type OutputDifference } from "./output-folder.js";
import { regenerateCommand } from "./regenerate-command.js";

export { regenerateCommand } from "./regenerate-command.js";

export interface RunOptions {
  schema: string;
  out: string;
  /** Import specifier of the runtime entry; defaults to the published `@rcp-gen/runtime/codegen`. */
  runtime?: string;
  check: boolean;
  /** The command quoted in banners; default: the flags that reproduce this run (regenerateCommand). */
  command?: string;
}

export type RunReport =
  | {
      kind: "written";
      files: { name: string; bytes: number }[];
      methods: number;
      notifications: number;
      milliseconds: number;
    }
  | { kind: "checked"; differences: OutputDifference[]; milliseconds: number };

export async function runOnce(options: RunOptions): Promise<RunReport> {
  const started = performance.now();
  requireEsmFolder(options.out);
  const folder = loadSchemaFolder(options.schema);
  const files = await generate(folder, {
    runtimeSpecifier: options.runtime ?? defaultRuntimeEntry,
    command: options.command ?? regenerateCommand(options),
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
