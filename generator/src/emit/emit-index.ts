/**
 * index.ts: everything generated, from one import (browser code imports client.ts instead:
 * node.ts spawns processes). Re-exports only the modules this run generates.
 */
import { definePlugin } from "../plugin/plugin.js";

/** Each TypeScript target and how index.ts re-exports it, in this order. */
const reexports: readonly [target: string, statement: (from: string) => string][] = [
  ["types", (from) => `export type * from "${from}";`],
  ["methods", (from) => `export * from "${from}";`],
  ["server", (from) => `export * from "${from}";`],
  ["client", (from) => `export * from "${from}";`],
  ["node", (from) => `export * from "${from}";`],
  ["validators", (from) => `export * as validators from "${from}";`],
];

export const indexTarget = definePlugin({
  name: "index",
  generate({ newFile, targets }) {
    const file = newFile("index.ts");
    for (const [target, statement] of reexports)
      if (targets.has(target)) file.print(statement(file.relative(`${target}.ts`)));
    return [file];
  },
});
