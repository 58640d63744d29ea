/**
 * Scenario 6's floor, in a process of its own: the least a generator of types and standalone
 * validators does with the same libraries, called once each, on the schema folder given as
 * argv[2]. json-schema-to-typescript `compile` (format: false) on every method and notification
 * file; one ajv 2020-12 instance holding every file, compiling each method's and notification's
 * params, result and partial and each shared type; one `standaloneCode` of them all. It runs
 * twice: the first run is cold (modules loaded on the way), the second warm, as `--watch`
 * reruns. Prints one JSON line with the warm run's milliseconds; the orchestrator times the
 * whole process, so the cold run is that time less the warm run.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";

export interface GeneratorFloorResult {
  warmMs: number;
}

const folder = process.argv[2];
if (!folder) throw new Error("usage: generator-floor.js <schema folder>");
const idBase = "https://floor.invalid/schema/";

function jsonFiles(subfolder: string): string[] {
  return readdirSync(join(folder!, subfolder))
    .filter((name) => name.endsWith(".json"))
    .sort()
    .map((name) => `${subfolder}/${name}`);
}

async function floorRun(): Promise<void> {
  const { compile } = await import("json-schema-to-typescript");
  const { Ajv2020 } = await import("ajv/dist/2020.js");
  const standaloneCode = (await import("ajv/dist/standalone/index.js")).default.default;
  const read = (path: string) => JSON.parse(readFileSync(join(folder!, path), "utf8")) as Record<string, unknown>;
  const callFiles = [...jsonFiles("methods"), ...jsonFiles("notifications")];
  for (const path of callFiles) {
    const cwd = join(folder!, path.split("/")[0]!);
    await compile(read(path), path, { format: false, bannerComment: "", cwd });
  }
  const ajv = new Ajv2020({ strict: false, validateFormats: false, code: { source: true, esm: true } });
  const allFiles = [
    ...readdirSync(folder!).filter((name) => name.endsWith(".json")),
    ...jsonFiles("types"),
    ...callFiles,
  ];
  for (const path of allFiles) ajv.addSchema({ ...read(path), $id: idBase + path });
  const exports: Record<string, string> = {};
  for (const path of callFiles)
    for (const part of ["params", "result", "partial"])
      if ((read(path)["$defs"] as Record<string, unknown> | undefined)?.[part] !== undefined)
        exports[`v${Object.keys(exports).length}`] = `${idBase}${path}#/$defs/${part}`;
  for (const path of jsonFiles("types")) exports[`v${Object.keys(exports).length}`] = idBase + path;
  for (const id of Object.values(exports)) ajv.getSchema(id);
  standaloneCode(ajv, exports);
}

await floorRun();
const started = performance.now();
await floorRun();
const result: GeneratorFloorResult = { warmMs: performance.now() - started };
console.log(JSON.stringify(result));
