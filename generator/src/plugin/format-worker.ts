/** The formatting thread (format.ts): prettier loads and runs here while the main thread compiles validators. */
import { parentPort } from "node:worker_threads";
import { format } from "prettier";
import { prettierOptions } from "./prettier-options.js";

parentPort?.on("message", async ({ id, text }: { id: number; text: string }) => {
  try {
    parentPort?.postMessage({ id, formatted: await format(text, prettierOptions) });
  } catch (error) {
    parentPort?.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
