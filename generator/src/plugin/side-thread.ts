/**
 * The run's second thread, for the work that needs neither the schema folder nor ajv: prettier
 * (options in prettier-options.ts) and json-schema-to-typescript (side-jobs.ts). On two cores a
 * cold run's main thread loads the folder and compiles validators meanwhile, which is most of
 * its length. Run from sources (the tests), the same jobs run in this thread.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { runSideJob, type SideJob } from "./side-jobs.js";

/** Recent results: a --watch run formats again only the files whose text changed. */
const formatted = new Map<string, Promise<string>>();
const REMEMBERED = 64;

export function formatTypeScript(text: string): Promise<string> {
  let result = formatted.get(text);
  if (result === undefined) {
    if (formatted.size >= REMEMBERED) formatted.clear();
    result = sideThread()
      .run({ kind: "format", text })
      .catch((error: Error) => Promise.reject(new Error(`prettier: ${error.message}`)));
    formatted.set(text, result);
    result.catch(() => formatted.delete(text));
  }
  return result;
}

/** json-schema-to-typescript's declarations for a type schema (emit-types.ts). */
export function typeDeclarations(job: Omit<Extract<SideJob, { kind: "declarations" }>, "kind">): Promise<string> {
  return sideThread().run({ kind: "declarations", ...job });
}

/**
 * Starts the thread (it loads prettier and json-schema-to-typescript) before any job is ready,
 * so that loading overlaps the schema folder's loading rather than delaying the first job.
 */
export function prepareSideThread(): void {
  sideThread();
}

interface SideThread {
  run(job: SideJob): Promise<string>;
}

let current: SideThread | undefined;

function sideThread(): SideThread {
  if (current) return current;
  const workerFile = new URL("./side-thread-worker.js", import.meta.url);
  current = existsSync(fileURLToPath(workerFile)) ? workerThread(workerFile) : { run: runSideJob };
  return current;
}

/** The worker holds the process open only while it has a job. */
function workerThread(file: URL): SideThread {
  const worker = new Worker(file);
  worker.unref();
  const pending = new Map<number, { resolve: (text: string) => void; reject: (error: Error) => void }>();
  let next = 0;
  // Node 20 forgets an unref() made before the thread is online: a run that gives it no job (or
  // fails first) would wait for prettier to load before exiting.
  worker.once("online", () => {
    if (pending.size === 0) worker.unref();
  });
  const settle = (id: number) => {
    const job = pending.get(id);
    pending.delete(id);
    if (pending.size === 0) worker.unref();
    return job;
  };
  worker.on("message", ({ id, result, error }: { id: number; result?: string; error?: string }) => {
    const job = settle(id);
    if (error !== undefined) job?.reject(new Error(error));
    else job?.resolve(result ?? "");
  });
  worker.on("error", (error) => {
    for (const id of [...pending.keys()]) settle(id)?.reject(error);
    current = undefined;
  });
  return {
    run: (job) =>
      new Promise((resolve, reject) => {
        const id = next++;
        pending.set(id, { resolve, reject });
        worker.ref();
        worker.postMessage({ id, job });
      }),
  };
}
