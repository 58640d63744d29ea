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

/** What `generate` emits, and the runtime import it emits against. */
export interface GenerateOptions {
  /** Import specifier of the runtime entry for generated code. */
  readonly runtimeSpecifier: string;
  /** The command that regenerates the output, quoted in every banner. */
  readonly command: string;
  /** Built-in targets (and `default`); default: the TypeScript modules and the bundle. */
  readonly targets?: readonly string[];
  /** Plugins of the user's; their files are listed after the built-in targets' files. */
  readonly plugins?: readonly RcpGenPlugin[];
  /** Examples for the docs targets. */
  readonly examples?: ExampleSet;
  readonly moduleFormat?: "ts" | "js";
}

/** A plugin that failed or broke the rules, named. */
export class PluginError extends Error {
  override name = "PluginError";
}

/** Runs the built-in targets and the plugins over a loaded schema folder: file names to contents, nothing written. */
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
  const banner = bannerLines(options.command);
  const format = async (text: string) => (await import("./side-thread.js")).formatTypeScript(text);
  const runs = [
    ...builtins.map((plugin) => ({ plugin, own: false })),
    ...plugins.map((plugin) => ({ plugin, own: true })),
  ];
  // Every target starts before any is awaited, and each file starts rendering as soon as its
  // target returns it (prettier runs in the side thread; files printed laid out need none): a
  // target waiting on the side thread (types) does not hold up the others. The slowest target
  // (validators: ajv's compilation; `runsLast`) starts last, and compiles a slice at a time so
  // that the side thread's replies are taken up meanwhile (load/compile-all.ts). Files are checked
  // and listed in target order, whatever order they finished in.
  const last = (index: number) => Number(runsLast.has(runs[index]!.plugin));
  const runOrder = [...runs.keys()].sort((a, b) => last(a) - last(b));
  const started = new Array<Promise<RenderedRun>>(runs.length);
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
    started[index] = (async () => {
      const returned = own ? await runUserPlugin(plugin, context) : await plugin.generate(context);
      return {
        plugin,
        files: returned.map((file) => {
          const text = created.has(file) ? file.render(banner, format) : Promise.resolve("");
          text.catch(() => undefined); // awaited below, unless an earlier target's failure is thrown first
          return { file, made: created.has(file), text };
        }),
      };
    })();
    started[index].catch(() => undefined);
  }
  const owners = new Map<string, string>();
  const rendered: Promise<readonly [string, string]>[] = [];
  for (const run of started) {
    const { plugin, files } = await run;
    for (const { file, made, text } of files) {
      if (!made) throw new PluginError(`plugin "${plugin.name}" returned a file it did not make with newFile()`);
      const owner = owners.get(file.path);
      if (owner !== undefined) throw new PluginError(`plugin "${plugin.name}" and "${owner}" both write ${file.path}`);
      owners.set(file.path, plugin.name);
      rendered.push(text.then((content) => [file.path, content] as const));
    }
  }
  if (owners.has(manifestName))
    throw new PluginError(`plugin "${owners.get(manifestName)}" writes ${manifestName}, which rcp-gen writes`);
  return new Map([...(await Promise.all(rendered)), manifestFile(folder, [...owners.keys()], options.command)]);
}

/** A target's files, each rendering (or rendered) to its final text. */
interface RenderedRun {
  readonly plugin: RcpGenPlugin;
  readonly files: readonly { file: GeneratedFile; made: boolean; text: Promise<string> }[];
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
