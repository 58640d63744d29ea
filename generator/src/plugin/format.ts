/**
 * Formats generated TypeScript with prettier (options in prettier-options.ts), once per text.
 * Built, it formats in a worker thread: prettier loads and prints there while the main thread
 * goes on with the next target (ajv's compilation, mostly), which is most of a cold run's
 * length on two cores. Run from sources (the tests), it formats in this thread.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { prettierOptions } from "./prettier-options.js";

/** Recent results: a --watch run formats again only the files whose text changed. */
const formatted = new Map<string, Promise<string>>();
const REMEMBERED = 64;

export function formatTypeScript(text: string): Promise<string> {
  let result = formatted.get(text);
  if (result === undefined) {
    if (formatted.size >= REMEMBERED) formatted.clear();
    result = formatter().format(text);
    formatted.set(text, result);
    result.catch(() => formatted.delete(text));
  }
  return result;
}

/**
 * Starts the formatter (the worker loads prettier) before any text is ready, so that loading
 * overlaps the schema folder's loading rather than delaying the first file.
 */
export function prepareFormatter(): void {
  formatter();
}

interface Formatter {
  format(text: string): Promise<string>;
}

let current: Formatter | undefined;

function formatter(): Formatter {
  if (current) return current;
  const workerFile = new URL("./format-worker.js", import.meta.url);
  current = existsSync(fileURLToPath(workerFile)) ? threadFormatter(workerFile) : inProcessFormatter();
  return current;
}

function inProcessFormatter(): Formatter {
  return { format: async (text) => (await import("prettier")).format(text, prettierOptions) };
}

/** The worker holds the process open only while a text is being formatted. */
function threadFormatter(file: URL): Formatter {
  const worker = new Worker(file);
  worker.unref();
  const pending = new Map<number, { resolve: (text: string) => void; reject: (error: Error) => void }>();
  let next = 0;
  // Node 20 forgets an unref() made before the thread is online: a run that formats nothing (or
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
  worker.on("message", ({ id, formatted: text, error }: { id: number; formatted?: string; error?: string }) => {
    const job = settle(id);
    if (error !== undefined) job?.reject(new Error(`prettier: ${error}`));
    else job?.resolve(text ?? "");
  });
  worker.on("error", (error) => {
    for (const id of [...pending.keys()]) settle(id)?.reject(error);
    current = undefined;
  });
  return {
    format: (text) =>
      new Promise((resolve, reject) => {
        const id = next++;
        pending.set(id, { resolve, reject });
        worker.ref();
        worker.postMessage({ id, text });
      }),
  };
}
