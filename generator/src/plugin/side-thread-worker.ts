/**
 * The side thread (side-thread.ts): prettier and json-schema-to-typescript load and run here
 * while the main thread loads the schema folder and compiles validators.
 */
import { parentPort, workerData } from "node:worker_threads";
import { runSideJob, type SideJob } from "./side-jobs.js";

// Loaded now, while the main thread still reads the schema folder (a formatting-only thread, a
// large output's second formatter, needs prettier alone); then prettier's printer is warmed on a
// small text of the shapes generated files have, so the first real file formats at warm speed.
const { formatOnly } = workerData as { formatOnly: boolean };
await Promise.all([import("prettier"), ...(formatOnly ? [] : [import("json-schema-to-typescript")])]);
await runSideJob({
  kind: "format",
  text: 'import type { A } from "./a.js";\nexport interface B { readonly a?: A; b: string[] }\nexport class C { m(x: number): B { return { b: [String(x)] }; } }\nexport const d = { e: 1, f: [1, 2] } as const;\n',
});

parentPort?.on("message", async ({ id, job }: { id: number; job: SideJob }) => {
  try {
    parentPort?.postMessage({ id, result: await runSideJob(job) });
  } catch (error) {
    parentPort?.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
