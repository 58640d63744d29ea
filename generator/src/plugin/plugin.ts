/**
 * The plugin API (exported by the `rcp-gen` package): a plugin is a name and a `generate`
 * function that receives the typed model of the schema folder and a file helper, and returns
 * the files it made. rcp-gen's own outputs are plugins of this very shape (the built-in
 * targets), so a user's plugin goes through the same banner, formatting, atomic write and
 * `--check` as `server.ts` does.
 */
import type { RcpModel } from "../model/model.js";
import type { ExampleSet } from "../targets/shared/examples.js";
import type { GeneratedFile, NewFileOptions } from "./generated-file.js";

/** What a plugin's `generate` receives: the model of the schema folder, `newFile`, the targets being generated and the examples. */
export interface PluginContext {
  /** The schema folder, typed: methods, notifications, shapes, errors. */
  readonly model: RcpModel;
  /** A new file at `path` inside the output folder (posix, relative: `methods.md`, `docs/retrieve.md`). */
  newFile(this: void, path: string, options?: NewFileOptions): GeneratedFile;
  /** The targets of this run (built-in names and plugin names), so a file can refer only to what exists. */
  readonly targets: ReadonlySet<string>;
  /** Example params and results per shape, when the run was given an examples folder (docs targets read them). */
  readonly examples: ExampleSet | undefined;
}

/** An rcp-gen plugin: a name, the built-in targets it needs, and `generate`, which returns the files it made. */
export interface RcpGenPlugin {
  /** Names the plugin in messages and in `--targets`; a plugin's files must not collide with another's. */
  readonly name: string;
  /** Built-in targets whose files this plugin's files import: they are generated with it. */
  readonly requires?: readonly string[];
  /** The files this plugin emits for the model (an empty list is fine). */
  generate(context: PluginContext): readonly GeneratedFile[] | Promise<readonly GeneratedFile[]>;
}

/** Declares a plugin with its types checked; a plugin module default-exports what this returns. */
export function definePlugin<const P extends RcpGenPlugin>(plugin: P): P {
  return plugin;
}
