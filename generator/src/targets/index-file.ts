/**
 * index.ts: everything generated, from one import (browser code imports client.ts instead:
 * node.ts spawns processes). Re-exports only the modules this run generates, as each built-in
 * target's `reexport` says, namespaces last.
 */
import { builtinTargets, targetCode, type BuiltinTarget } from "./builtin.js";

const statements: Record<NonNullable<BuiltinTarget["reexport"]>, (name: string, from: string) => string> = {
  types: (_name, from) => `export type * from "${from}";`,
  all: (_name, from) => `export * from "${from}";`,
  namespace: (name, from) => `export * as ${name} from "${from}";`,
};

export const indexTarget = targetCode({
  generate({ newFile, targets }) {
    const file = newFile("index.ts");
    const reexported = builtinTargets.filter((target) => target.reexport !== undefined && targets.has(target.name));
    const namespacesLast = [
      ...reexported.filter((target) => target.reexport !== "namespace"),
      ...reexported.filter((target) => target.reexport === "namespace"),
    ];
    for (const { name, reexport } of namespacesLast)
      file.print(statements[reexport!](name, file.relative(`${name}.ts`)));
    return [file];
  },
});
