/**
 * Compiles many schemas of a folder (compileRef) a slice at a time. On a large folder this is
 * seconds of ajv, and the side thread's replies (types.ts's declarations, which this thread
 * turns into a file to format) are handled only when this thread's event loop turns: holding it
 * left the side thread idle for as long. Every schema ajv refuses is reported, by file and pointer.
 *
 * Calls take turns in the order they were made: ajv numbers its functions as it compiles them,
 * so validators.ts is the same text whichever target's slices the event loop would run first.
 */
import { performance } from "node:perf_hooks";
import { setImmediate as nextTurn } from "node:timers/promises";
import { compileRef, type LoadedSchemaFolder } from "./loader.js";
import { SchemaProblems } from "./schema-folder-error.js";

/** How long ajv may hold the thread before the event loop turns. */
const SLICE_MS = 10;

/** The last call's compilation per folder: the next one starts after it. */
const lastInLine = new WeakMap<LoadedSchemaFolder, Promise<unknown>>();

export function compileAll(folder: LoadedSchemaFolder, refs: Iterable<string>): Promise<void> {
  const listed = [...refs];
  const compiled = (lastInLine.get(folder) ?? Promise.resolve()).then(() => compileInSlices(folder, listed));
  lastInLine.set(
    folder,
    compiled.catch(() => undefined),
  );
  return compiled;
}

async function compileInSlices(folder: LoadedSchemaFolder, refs: readonly string[]): Promise<void> {
  const problems = new SchemaProblems();
  let sliceStart = performance.now();
  for (const ref of refs) {
    problems.attempt(() => compileRef(folder, ref));
    if (performance.now() - sliceStart < SLICE_MS) continue;
    await nextTurn();
    sliceStart = performance.now();
  }
  problems.throwIfAny();
}
