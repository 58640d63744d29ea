/** One rcp-gen run: load the schema folder, generate in memory, then write or check. */
import { normalize, sep } from "node:path";
import { generate } from "../emit/generate.js";
import { defaultRuntimeEntry } from "../emit/runtime-symbols.js";
import { loadSchemaFolder } from "../load/loader.js";
import { compareOutputFolder, writeOutputFolder, type OutputDifference } from "./output-folder.js";

export interface RunOptions {
  schema: string;
  out: string;
  /** Import specifier of the runtime entry; defaults to the published `@rcp-gen/runtime/codegen`. */
  runtime?: string;
  check: boolean;
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

const posix = (path: string) => path.split(sep).join("/");

/** A path as the user typed it, minus noise (`./schema/` -> `schema`), so banners do not depend on the machine. */
const asTyped = (path: string) => posix(normalize(path)).replace(/(.)\/$/, "$1");

/** The command quoted in banners; `--runtime` only when it is not the default. */
export function regenerateCommand(options: RunOptions): string {
  const runtime = options.runtime !== undefined && options.runtime !== defaultRuntimeEntry;
  const parts = ["npx rcp-gen", "--schema", asTyped(options.schema), "--out", asTyped(options.out)];
  return [...parts, ...(runtime ? ["--runtime", String(options.runtime)] : [])].join(" ");
}

export async function runOnce(options: RunOptions): Promise<RunReport> {
  const started = performance.now();
  const folder = loadSchemaFolder(options.schema);
  const files = await generate(folder, {
    runtimeSpecifier: options.runtime ?? defaultRuntimeEntry,
    command: regenerateCommand(options),
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
