/** The formatting thread (format.ts): prettier loads and runs here while the main thread compiles validators. */
import { parentPort } from "node:worker_threads";
import { format } from "prettier";
import { prettierOptions } from "./prettier-options.js";

// Warm prettier's printer on a small text of the shapes generated files have while the main thread
// is still loading the schema folder: the first real file then formats at warm speed.
await format(
  'import type { A } from "./a.js";\nexport interface B { readonly a?: A; b: string[] }\nexport class C { m(x: number): B { return { b: [String(x)] }; } }\nexport const d = { e: 1, f: [1, 2] } as const;\n',
  prettierOptions,
);

parentPort?.on("message", async ({ id, text }: { id: number; text: string }) => {
  try {
    parentPort?.postMessage({ id, formatted: await format(text, prettierOptions) });
  } catch (error) {
    parentPort?.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
