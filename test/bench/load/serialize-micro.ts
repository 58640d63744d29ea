/**
 * Scenario 11's measurement, in a process of its own: writing the retrieve result (rich and
 * small fixtures) as JSON text with the runtime's serialize() (JSON.stringify plus the
 * non-finite rules), with a serializer compiled from the schema (test/serializers/compiler),
 * and with bare JSON.stringify. Building the value is timed alone and subtracted. Nanoseconds
 * per call, alternating A B C, median of 5 rounds. Prints one JSON line.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { compileSerializers } from "../../serializers/compiler/compile-serializers.js";
import { serialize } from "../../../runtime/src/protocol/serialize.js";
import { buildRetrieveResult } from "../fixture.js";
import { median } from "../stats.js";

export type SerializeMicroResult = Record<string, number>;

const calls = Number(process.argv[2] ?? 100_000);
const bundlePath = fileURLToPath(new URL("../../../../generated/rcp.schema.json", import.meta.url));
const bundle = JSON.parse(readFileSync(bundlePath, "utf8")) as Record<string, unknown>;
const workDir = mkdtempSync(join(tmpdir(), "rcp-bench-serializers-"));
let compiled: (value: unknown) => string;
try {
  const file = join(workDir, "serializers.mjs");
  const retrieve = (bundle.$defs as Record<string, { $id: string }>)["methods/retrieve.json"];
  if (retrieve === undefined) throw new Error(`${bundlePath} has no methods/retrieve.json`);
  const ref = `${retrieve.$id}#/$defs/result`;
  writeFileSync(file, compileSerializers(bundle, [{ name: "retrieveResult", ref }]));
  compiled = ((await import(pathToFileURL(file).href)) as { retrieveResult: typeof compiled }).retrieveResult;
} finally {
  rmSync(workDir, { recursive: true, force: true });
}

/** The fixture the process was started for (BENCH_RESULT), built per call as a server would. */
function timeCalls(write: (value: unknown) => string): number {
  let bytes = 0;
  const started = performance.now();
  for (let call = 0; call < calls; call += 1) bytes += write(buildRetrieveResult()).length;
  const elapsed = performance.now() - started;
  if (bytes === 0) throw new Error("nothing written");
  return (elapsed * 1e6) / calls;
}

const sample = buildRetrieveResult();
if (compiled(sample) !== serialize(sample)) throw new Error("the compiled serializer disagrees with serialize()");
const contenders: Array<[string, (value: unknown) => string]> = [
  ["buildOnly", () => " "],
  ["serializeNs", serialize],
  ["compiledNs", compiled],
  ["jsonStringifyNs", (value) => JSON.stringify(value)],
];
const samples = new Map<string, number[]>();
for (let round = 0; round < 5; round += 1) {
  for (const [name, write] of contenders) samples.set(name, [...(samples.get(name) ?? []), timeCalls(write)]);
}
const build = median(samples.get("buildOnly") ?? []);
const output: SerializeMicroResult = Object.fromEntries(
  contenders.slice(1).map(([name]) => [name, Math.max(0, median(samples.get(name) ?? []) - build)]),
);
process.stdout.write(JSON.stringify(output) + "\n");
