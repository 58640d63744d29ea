/**
 * From a loaded schema folder to the generated modules, in memory: file name -> content.
 * Nothing touches the disk here, so a failure at any step leaves the output untouched.
 */
import { bundleSchema } from "../model/bundle.js";
import { emitClient } from "./emit-client.js";
import { newEmitProject, type EmitSettings } from "./emit-file.js";
import { emitIndex } from "./emit-index.js";
import { emitMethods } from "./emit-methods.js";
import { emitNode } from "./emit-node.js";
import { emitServer } from "./emit-server.js";
import { emitTypes } from "./emit-types.js";
import { emitValidators } from "./emit-validators.js";
import type { LoadedSchemaFolder } from "../load/loader.js";
import { allShapes } from "../model/shapes.js";
import { banner } from "./banner.js";

export interface GenerateOptions {
  /** Import specifier of the runtime entry for generated code. */
  readonly runtimeSpecifier: string;
  /** The command that regenerates the output, quoted in every banner. */
  readonly command: string;
}

export async function generate(folder: LoadedSchemaFolder, options: GenerateOptions): Promise<Map<string, string>> {
  const settings: EmitSettings = {
    runtimeSpecifier: options.runtimeSpecifier,
    banner: banner(folder.hash, options.command),
  };
  const project = newEmitProject();
  const shapes = allShapes(folder);
  const files: [string, string][] = [
    ["types.ts", await emitTypes(project, settings, folder, shapes)],
    ["validators.ts", emitValidators(settings, folder, shapes)],
    ["methods.ts", await emitMethods(project, settings, folder, shapes)],
    ["server.ts", await emitServer(project, settings, folder, shapes)],
    ["client.ts", await emitClient(project, settings, folder, shapes)],
    ["node.ts", await emitNode(project, settings)],
    ["index.ts", await emitIndex(project, settings)],
    ["rcp.schema.json", emitBundle(folder, settings)],
  ];
  return new Map(files);
}

/**
 * rcp.schema.json: the whole protocol as one self-contained root schema (any frame or batch),
 * for users who validate with their own tools. JSON has no comments: the banner is `$comment`.
 */
function emitBundle(folder: LoadedSchemaFolder, settings: EmitSettings): string {
  const banner = settings.banner
    .split("\n")
    .map((line) => line.replace(/^\/\/ /, ""))
    .join(" ");
  return `${JSON.stringify({ $comment: banner, ...bundleSchema(folder) }, null, 2)}\n`;
}
