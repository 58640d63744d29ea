/**
 * From a loaded schema folder to the generated files, in memory: path -> content. The chosen
 * built-in targets and the user's plugins run over one model, each file through one banner
 * and one formatting pass. Nothing touches the disk here, so a failure at any step (a
 * plugin's too) leaves the output untouched.
 */
import type { LoadedSchemaFolder } from "../load/loader.js";
import { buildModel } from "../model/model.js";
import type { ExampleSet } from "../docs/examples.js";
import { bannerLines, manifestName } from "./banner.js";
import { manifestFile } from "./manifest.js";
import { GeneratedFile, type NewFileOptions } from "./generated-file.js";
import type { PluginContext, RcpGenPlugin } from "./plugin.js";
import { defaultTargets, resolveTargets } from "./targets.js";

export interface GenerateOptions {
  /** Import specifier of the runtime entry for generated code. */
  readonly runtimeSpecifier: string;
  /** The command that regenerates the output, quoted in every banner. */
  readonly command: string;
  /** Built-in targets (and `default`); default: the TypeScript modules and the bundle. */
  readonly targets?: readonly string[];
  /** Plugins of the user's, run after the built-in targets. */
  readonly plugins?: readonly RcpGenPlugin[];
  /** Examples for the docs targets. */
  readonly examples?: ExampleSet;
}

/** A plugin that failed or broke the rules, named. */
export class PluginError extends Error {
  override name = "PluginError";
}

export async function generate(folder: LoadedSchemaFolder, options: GenerateOptions): Promise<Map<string, string>> {
  const plugins = options.plugins ?? [];
  const { targets } = resolveTargets([
    ...(options.targets ?? defaultTargets),
    ...plugins.flatMap((plugin) => plugin.requires ?? []),
  ]);
  const builtins = await Promise.all(targets.map((target) => target.load()));
  const runsLast = new Set(builtins.filter((_plugin, index) => targets[index]!.runsLast));
  const names = new Set(builtins.map((plugin) => plugin.name));
  for (const plugin of plugins) {
    if (names.has(plugin.name))
      throw new PluginError(`two plugins are named "${plugin.name}" (built-in targets count): rename yours`);
    names.add(plugin.name);
  }
  const model = buildModel(folder);
  const owners = new Map<string, string>();
  const banner = bannerLines(options.command);
  // prettier, loaded only when a file needs formatting; each file starts formatting (in a worker
  // thread, format.ts) as soon as its target returns it, while the next target runs.
  const format = async (text: string) => (await import("./format.js")).formatTypeScript(text);
  const runs = [
    ...builtins.map((plugin) => ({ plugin, own: false })),
    ...plugins.map((plugin) => ({ plugin, own: true })),
  ];
  // Files are listed in target order, but the targets whose files are formatted run first: each
  // file formats in the worker while the targets that follow run, so the slowest target that
  // formats nothing (validators: ajv's compilation; `runsLast`) goes last and overlaps them all.
  const rendered: Promise<readonly [string, string]>[][] = runs.map(() => []);
  const last = (index: number) => Number(runsLast.has(runs[index]!.plugin));
  const runOrder = [...runs.keys()].sort((a, b) => last(a) - last(b));
  for (const index of runOrder) {
    const { plugin, own } = runs[index]!;
    const created = new Set<GeneratedFile>();
    const context: PluginContext = {
      model,
      targets: names,
      examples: options.examples,
      newFile: (path: string, fileOptions?: NewFileOptions) => {
        const file = new GeneratedFile(checkedPath(plugin.name, path), options.runtimeSpecifier, fileOptions);
        created.add(file);
        return file;
      },
    };
    const returned = own ? await runUserPlugin(plugin, context) : await plugin.generate(context);
    for (const file of returned) {
      if (!created.has(file))
        throw new PluginError(`plugin "${plugin.name}" returned a file it did not make with newFile()`);
      const owner = owners.get(file.path);
      if (owner !== undefined) throw new PluginError(`plugin "${plugin.name}" and "${owner}" both write ${file.path}`);
      owners.set(file.path, plugin.name);
      const text = file.render(banner, format).then((content) => [file.path, content] as const);
      text.catch(() => undefined); // awaited below; a later target failing first must not leave it unhandled
      rendered[index]!.push(text);
    }
  }
  if (owners.has(manifestName))
    throw new PluginError(`plugin "${owners.get(manifestName)}" writes ${manifestName}, which rcp-gen writes`);
  return new Map([...(await Promise.all(rendered.flat())), manifestFile(folder, [...owners.keys()], options.command)]);
}

/** A user's plugin: its error is named after it (a built-in target's errors name schema files themselves). */
async function runUserPlugin(plugin: RcpGenPlugin, context: PluginContext): Promise<readonly GeneratedFile[]> {
  try {
    return await plugin.generate(context);
  } catch (error) {
    throw new PluginError(`plugin "${plugin.name}" failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** A path inside the output folder, as `a/b.md`: relative, forward slashes, never leaving the folder. */
function checkedPath(plugin: string, path: string): string {
  const parts = path.split("/");
  if (
    path === "" ||
    path.startsWith("/") ||
    path.includes("\\") ||
    parts.some((part) => part === "" || part === "." || part === "..")
  )
    throw new PluginError(
      `plugin "${plugin}" asked for the file "${path}": a path inside the output folder is relative, like docs/retrieve.md`,
    );
  return path;
}
