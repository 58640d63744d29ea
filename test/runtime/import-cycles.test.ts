/**
 * The runtime's and the generator's modules import each other without cycles, type-only imports
 * included: a cycle (as core.ts <-> context.ts <-> connection.ts once were, a request holding the
 * whole server; as load/ <-> model/ once were, the loader handing out the model's bundle) means a
 * module knows more of another than it needs (issue 15, issue 27).
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { expect, it } from "vitest";
import { repoRoot } from "../generator/run-cli.js";

function moduleGraph(sources: string): Map<string, string[]> {
  const files = readdirSync(sources, { recursive: true, encoding: "utf8" })
    .filter((path) => path.endsWith(".ts"))
    .map((path) => join(sources, path));
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(file, "utf8");
    // Static imports and re-exports, `import type` included; lazy `import()` is not a load-time edge.
    const targets = [...text.matchAll(/^(?:import|export)\s[^;]*?\sfrom\s+"(\.[^"]+)"/gms)]
      .map((match) => resolve(dirname(file), match[1]!.replace(/\.js$/, ".ts")))
      .filter((target) => known.has(target));
    graph.set(file, targets);
  }
  return graph;
}

/** One import path that leads from a module back to itself, or undefined. */
function findCycle(graph: Map<string, string[]>): string[] | undefined {
  const state = new Map<string, "open" | "done">();
  const trail: string[] = [];
  const visit = (file: string): string[] | undefined => {
    if (state.get(file) === "open") return [...trail.slice(trail.indexOf(file)), file];
    if (state.get(file) === "done") return undefined;
    state.set(file, "open");
    trail.push(file);
    for (const target of graph.get(file) ?? []) {
      const cycle = visit(target);
      if (cycle) return cycle;
    }
    trail.pop();
    state.set(file, "done");
    return undefined;
  };
  for (const file of graph.keys()) {
    const cycle = visit(file);
    if (cycle) return cycle;
  }
  return undefined;
}

it.each([
  ["runtime/src", "server/core.ts", "server/context.ts"],
  ["generator/src", "model/bundle.ts", "load/schema-ajv.ts"],
])("%s has no import cycle, type-only imports included", (folder, importer, imported) => {
  const sources = join(repoRoot, folder);
  const graph = moduleGraph(sources);
  expect(graph.size).toBeGreaterThan(50);
  expect(graph.get(join(sources, importer))).toContain(join(sources, imported));
  const cycle = findCycle(graph);
  expect(cycle?.map((file) => relative(sources, file)).join(" -> ")).toBeUndefined();
});
