/**
 * rcp-gen as a library: the same run the command line does (load, generate, write or check),
 * for build scripts that call it in-process.
 */
export { runOnce, regenerateCommand, type RunOptions, type RunReport } from "./cli/run.js";
export { generate, type GenerateOptions } from "./plugin/generate.js";
export { loadSchemaFolder, SchemaFolderError, type LoadedSchemaFolder } from "./load/loader.js";
export { defaultRuntimeEntry } from "@rcp-gen/runtime/codegen-symbols";
export { rcpSchemaDir } from "./shipped.js";
export { scaffoldProject, type Scaffolded } from "./init/scaffold.js";
