/** index.ts: everything generated, from one import (browser code imports client.ts instead: node.ts spawns processes). */
import type { Project } from "ts-morph";
import { GeneratedFile, type EmitSettings } from "./emit-file.js";

export function emitIndex(project: Project, settings: EmitSettings): Promise<string> {
  const file = new GeneratedFile(project, "index.ts", settings);
  file.source.addExportDeclarations([
    { moduleSpecifier: "./types.js", isTypeOnly: true },
    { moduleSpecifier: "./methods.js" },
    { moduleSpecifier: "./server.js" },
    { moduleSpecifier: "./client.js" },
    { moduleSpecifier: "./node.js" },
    { moduleSpecifier: "./validators.js", namespaceExport: "validators" },
  ]);
  return file.render();
}
