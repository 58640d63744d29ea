/**
 * rcp-gen as a library: the plugin API (definePlugin and the model and file helper a plugin
 * receives), and the same run the command line does (load, generate, write or check), for
 * build scripts that call it in-process.
 *
 * @module rcp-gen
 */
export { definePlugin, type PluginContext, type RcpGenPlugin } from "./plugin/plugin.js";
export type { DocOptions, GeneratedFile, NewFileOptions, Printable, SourceEdit } from "./plugin/generated-file.js";
export type { RcpErrorCode, RcpMethod, RcpModel, RcpNotification, Shape } from "./model/model.js";
export type { Example, ExampleSet } from "./targets/shared/examples.js";
export type * from "./load/meta-schema/schema-files.js";
export { runOnce, regenerateCommand, type RunOptions, type RunReport } from "./cli/run-once.js";
export { generate, PluginError, type GenerateOptions } from "./plugin/run-plugins.js";
export { loadSchemaFolder, SchemaFolderError, type LoadedSchemaFolder } from "./load/loader.js";
export { defaultRuntimeEntry } from "@rcp-gen/runtime/codegen-symbols";
export { rcpSchemaDir } from "./shipped.js";
export { scaffoldProject, type Scaffolded } from "./init/scaffold.js";
