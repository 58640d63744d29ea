/**
 * The run's second thread, for the work that needs neither the schema folder nor ajv: prettier
 * (options in prettier-options.ts) and json-schema-to-typescript (side-jobs.ts). On two cores a
 * cold run's main thread loads the folder and compiles validators meanwhile, which is most of
 * its length. A large output (thousands of methods: megabytes to format) gets a third thread that
 * only formats, and its big files are formatted a run of statements at a time
 * (format-in-pieces.ts), shared between the two. Run from sources (the tests), the same jobs run
 * in this thread.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { runSideJob, type SideJob } from "./side-jobs.js";
import { formatInPieces } from "./format-in-pieces.js";

/** A file at least this long (characters) is formatted in pieces of about FORMAT_PIECE. */
const FORMAT_IN_PIECES_FROM = 256 * 1024;
const FORMAT_PIECE = 64 * 1024;
/** Characters waiting to be formatted past which a formatting-only thread is started. */
const SECOND_FORMATTER_FROM = 1024 * 1024;

/** Recent results: a --watch run formats again only the pieces whose text changed. */
const formatted = new Map<string, Promise<string>>();
let rememberedCharacters = 0;
const REMEMBERED_CHARACTERS = 32 * 1024 * 1024;

export function formatTypeScript(text: string): Promise<string> {
  return text.length < FORMAT_IN_PIECES_FROM ? formatPiece(text) : formatInPieces(text, FORMAT_PIECE, formatPiece);
}

function formatPiece(text: string): Promise<string> {
  let result = formatted.get(text);
  if (result === undefined) {
    if (rememberedCharacters > REMEMBERED_CHARACTERS) {
      formatted.clear();
      rememberedCharacters = 0;
    }
    result = sideThreads()
      .run({ kind: "format", text })
      .catch((error: Error) => Promise.reject(new Error(`prettier: ${error.message}`)));
    formatted.set(text, result);
    rememberedCharacters += text.length;
    result.catch(() => formatted.delete(text));
  }
  return result;
}

/** json-schema-to-typescript's declarations for a type schema (emit-types.ts). */
export function typeDeclarations(job: Omit<Extract<SideJob, { kind: "declarations" }>, "kind">): Promise<string> {
  return sideThreads().run({ kind: "declarations", ...job });
}

/**
 * Starts the thread (it loads prettier and json-schema-to-typescript) before any job is ready,
 * so that loading overlaps the schema folder's loading rather than delaying the first job.
 */
export function prepareSideThread(): void {
  sideThreads();
}

interface SideThread {
  run(job: SideJob): Promise<string>;
}

let current: SideThread | undefined;

function sideThreads(): SideThread {
  if (current) return current;
  const workerFile = new URL("./side-thread-worker.js", import.meta.url);
  current = existsSync(fileURLToPath(workerFile)) ? threadPool(workerFile) : { run: runSideJob };
  return current;
}

/**
 * The side thread, and a formatting-only thread once enough text waits: each format job goes to
 * the thread with fewer characters waiting; declarations go to the side thread, which loaded
 * json-schema-to-typescript.
 */
function threadPool(file: URL): SideThread {
  const threads = [{ thread: workerThread(file, { formatOnly: false }), waiting: 0 }];
  const waitingInAll = () => threads.reduce((sum, { waiting }) => sum + waiting, 0);
  return {
    run: (job) => {
      if (job.kind === "declarations") return threads[0]!.thread.run(job);
      if (threads.length === 1 && waitingInAll() + job.text.length > SECOND_FORMATTER_FROM)
        threads.push({ thread: workerThread(file, { formatOnly: true }), waiting: 0 });
      const chosen = threads.reduce((least, candidate) => (candidate.waiting < least.waiting ? candidate : least));
      chosen.waiting += job.text.length;
      return chosen.thread.run(job).finally(() => (chosen.waiting -= job.text.length));
    },
  };
}

/** The worker holds the process open only while it has a job. */
function workerThread(file: URL, workerData: { formatOnly: boolean }): SideThread {
  const worker = new Worker(file, { workerData });
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
