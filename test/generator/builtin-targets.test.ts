/**
 * A built-in target is a plugin that carries its own name, summary and requirements: what it
 * writes is what its summary says, `--help` lists the targets and what the default ones write from
 * those plugins, and index.ts re-exports what the run generated as each target's `reexport` says.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSchemaFolder, type LoadedSchemaFolder } from "../../generator/src/load/loader.js";
import { manifestName } from "../../generator/src/plugin/banner.js";
import { generate } from "../../generator/src/plugin/run-plugins.js";
import { builtinTargets, resolveTargets } from "../../generator/src/targets/builtin.js";
import { runCli } from "./run-cli.js";
import { minimalSchemaFiles, removeSchemaFolders, writeSchemaFolder } from "./schema-fixture.js";

let folder: LoadedSchemaFolder;
beforeAll(() => {
  folder = loadSchemaFolder(writeSchemaFolder(minimalSchemaFiles()));
});
afterAll(removeSchemaFolders);

async function filesOf(targets: readonly string[]): Promise<string[]> {
  const files = await generate(folder, { runtimeSpecifier: "@rcp-gen/runtime/codegen", command: "test", targets });
  return [...files.keys()].filter((path) => path !== manifestName);
}

/** The files a summary names (`docs/<method>.md` stands for any method's page), as patterns. */
function summaryPatterns(summary: string): RegExp[] {
  return [...summary.matchAll(/[\w<>/.-]+\.(?:ts|json|md)\b/g)].map(
    ([path]) => new RegExp(`^${path.replace(/\./g, "\\.").replace(/<method>/g, "[^/]+")}$`),
  );
}

describe.each(builtinTargets.map((target) => [target.name, target] as const))("the %s target", (_name, target) => {
  it("writes exactly the files its summary names", async () => {
    const required = await filesOf(resolveTargets([target.name]).added);
    const own = (await filesOf([target.name])).filter((path) => !required.includes(path));
    const patterns = summaryPatterns(target.summary);
    expect(patterns.length).toBeGreaterThan(0);
    expect(own.filter((path) => !patterns.some((pattern) => pattern.test(path)))).toEqual([]);
    expect(patterns.filter((pattern) => !own.some((path) => pattern.test(path)))).toEqual([]);
  });
});

it("--help names every built-in target and what the default ones write", () => {
  const help = runCli(["--help"]).stdout.replace(/\s+/g, " ");
  const defaults = builtinTargets.filter((target) => target.byDefault);
  expect(help).toContain(
    `Generates ${defaults
      .slice(0, -1)
      .map((target) => target.summary)
      .join(", ")} and ${defaults.at(-1)!.summary} from an RCP schema folder`,
  );
  expect(help).toContain(`built-in targets: default, ${builtinTargets.map((target) => target.name).join(", ")} `);
  expect(help).toContain(`(default: default, which is ${defaults.map((target) => target.name).join(", ")})`);
});

it("index.ts re-exports only the generated modules, each as its target says, namespaces last", async () => {
  const index = async (targets: string[]) =>
    (await generate(folder, { runtimeSpecifier: "@rcp-gen/runtime/codegen", command: "test", targets }))
      .get("index.ts")!
      .split("\n")
      .filter((line) => line.startsWith("export"));
  expect(await index(["types", "index"])).toEqual(['export type * from "./types.js";']);
  expect(await index(["validators", "server", "index", "mcp", "tanstack-query"])).toEqual([
    'export type * from "./types.js";',
    'export * from "./methods.js";',
    'export * from "./server.js";',
    'export * from "./client.js";',
    'export * as validators from "./validators.js";',
  ]);
});
