/**
 * From a loaded schema folder to the generated files, in memory: path -> content. The chosen
 * built-in targets and the user's plugins run alike over one model, in turn; every file gets one
 * banner, and every TypeScript file one prettier pass at the end, with the options resolved from
 * the output folder (prettier-options.ts). Nothing touches the disk here, so a failure at any
 * step (a plugin's too) leaves the output untouched.
 */
import type { LoadedSchemaFolder } from "../load/loader.js";
import { SchemaFolderError } from "../load/schema-folder-error.js";
import { buildModel } from "../model/model.js";
import type { ExampleSet } from "../targets/shared/examples.js";
import { bannerLines, manifestName } from "./banner.js";
import { manifestFile } from "./manifest.js";
import { GeneratedFile, type NewFileOptions } from "./generated-file.js";
import type { PluginContext, RcpGenPlugin } from "./plugin.js";
import { formatTypeScript, resolvePrettierOptions } from "./prettier-options.js";
import { defaultTargets, resolveTargets } from "../targets/builtin.js";

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
  /** The folder the files are for: its prettier config (if any) formats them. Without it, rcp-gen's defaults do. */
  readonly outputFolder?: string;
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
  const names = new Set(targets.map((plugin) => plugin.name));
  for (const plugin of plugins) {
    if (names.has(plugin.name))
      throw new PluginError(`two plugins are named "${plugin.name}" (built-in targets count): rename yours`);
    names.add(plugin.name);
  }
  const model = buildModel(folder);
  const owners = new Map<string, string>();
  const files: GeneratedFile[] = [];
  for (const plugin of [...targets, ...plugins]) {
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
    const returned = await runPlugin(plugin, context);
    for (const file of returned) {
      if (!created.has(file))
        throw new PluginError(`plugin "${plugin.name}" returned a file it did not make with newFile()`);
      const owner = owners.get(file.path);
      if (owner !== undefined) throw new PluginError(`plugin "${plugin.name}" and "${owner}" both write ${file.path}`);
      owners.set(file.path, plugin.name);
      files.push(file);
    }
  }
  if (owners.has(manifestName))
    throw new PluginError(`plugin "${owners.get(manifestName)}" writes ${manifestName}, which rcp-gen writes`);
  const banner = bannerLines(options.command);
  const prettierOptions = await resolvePrettierOptions(options.outputFolder);
  const rendered = new Map<string, string>();
  for (const file of files) {
    const text = await renderedFile(file, banner, owners.get(file.path)!);
    rendered.set(file.path, file.formatted ? await formatted(file.path, text, prettierOptions) : text);
  }
  const written =
    options.moduleFormat === "js" ? await (await import("./javascript.js")).toJavaScript(rendered, banner) : rendered;
  return written.set(...manifestFile(folder, [...written.keys()], options.command, prettierOptions));
}

/** A file's text, or the error of a plugin's source edit named after the plugin. */
async function renderedFile(file: GeneratedFile, banner: readonly string[], plugin: string): Promise<string> {
  try {
    return await file.render(banner);
  } catch (error) {
    if (error instanceof Error && error.name === "PluginFileError") throw error;
    throw new PluginError(
      `plugin "${plugin}" failed on ${file.path}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** `text` through prettier; code that does not parse is a bug of the target that printed it, named with its file. */
async function formatted(path: string, text: string, options: Readonly<Record<string, unknown>>): Promise<string> {
  try {
    return await formatTypeScript(text, options);
  } catch (error) {
    throw new PluginError(`${path}: prettier: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** A plugin's files; its error is named after it, unless it names a schema file and pointer itself. */
async function runPlugin(plugin: RcpGenPlugin, context: PluginContext): Promise<readonly GeneratedFile[]> {
  try {
    return await plugin.generate(context);
  } catch (error) {
    if (error instanceof SchemaFolderError) throw error;
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
