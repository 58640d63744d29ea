/**
 * The built-in targets: rcp-gen's own outputs, each a plugin declared here with its name, what it
 * writes and what it needs, its code in a module of its own loaded only when a run asks for it
 * (so `--help` and `--targets openrpc` never load json-schema-to-typescript or ajv's code
 * generator); and how a list of target names becomes the plugins to run, each with the targets it
 * needs. The default targets, `--help` and index.ts's re-exports are read from these plugins.
 */
import type { RcpGenPlugin } from "../plugin/plugin.js";

/** A plugin of rcp-gen's own. */
export interface BuiltinTarget extends RcpGenPlugin {
  /** What it writes, for --help. */
  readonly summary: string;
  /** Targets whose files this one's files import. */
  readonly requires: readonly string[];
  /** Generated when no targets are chosen. */
  readonly byDefault: boolean;
  /** How index.ts re-exports its module, if it does: its types only, all of it, or as a namespace of its name. */
  readonly reexport?: "types" | "all" | "namespace";
}

/** A built-in target's code, in its own module: the plugin around it is in builtinTargets. */
export type TargetCode = Pick<RcpGenPlugin, "generate">;

/** Declares a built-in target's code with its types checked. */
export function targetCode(code: TargetCode): TargetCode {
  return code;
}

/** In the order their files are listed. */
export const builtinTargets: readonly BuiltinTarget[] = [
  {
    name: "types",
    summary: "types.ts",
    requires: [],
    byDefault: true,
    reexport: "types",
    generate: async (context) => (await import("./types.js")).typesTarget.generate(context),
  },
  {
    name: "validators",
    summary: "validators.ts",
    requires: ["types"],
    byDefault: true,
    reexport: "namespace",
    generate: async (context) => (await import("./validators.js")).validatorsTarget.generate(context),
  },
  {
    name: "methods",
    summary: "methods.ts",
    requires: ["validators"],
    byDefault: true,
    reexport: "all",
    generate: async (context) => (await import("./methods.js")).methodsTarget.generate(context),
  },
  {
    name: "server",
    summary: "server.ts",
    requires: ["methods", "types"],
    byDefault: true,
    reexport: "all",
    generate: async (context) => (await import("./server.js")).serverTarget.generate(context),
  },
  {
    name: "client",
    summary: "client.ts",
    requires: ["methods", "types"],
    byDefault: true,
    reexport: "all",
    generate: async (context) => (await import("./client.js")).clientTarget.generate(context),
  },
  {
    name: "node",
    summary: "node.ts",
    requires: ["client"],
    byDefault: true,
    reexport: "all",
    generate: async (context) => (await import("./node.js")).nodeTarget.generate(context),
  },
  {
    name: "index",
    summary: "index.ts",
    requires: [],
    byDefault: true,
    generate: async (context) => (await import("./index-file.js")).indexTarget.generate(context),
  },
  {
    name: "bundle",
    summary: "rcp.schema.json",
    requires: [],
    byDefault: true,
    generate: async (context) => (await import("./bundle.js")).bundleTarget.generate(context),
  },
  {
    name: "openrpc",
    summary: "openrpc.json",
    requires: [],
    byDefault: false,
    generate: async (context) => (await import("./openrpc.js")).openrpcTarget.generate(context),
  },
  {
    name: "markdown",
    summary: "docs/README.md and docs/<method>.md",
    requires: [],
    byDefault: false,
    generate: async (context) => (await import("./markdown.js")).markdownTarget.generate(context),
  },
  {
    name: "mcp",
    summary: "mcp.ts (one MCP tool per method, for @rcp-gen/runtime/mcp)",
    requires: [],
    byDefault: false,
    generate: async (context) => (await import("./mcp.js")).mcpTarget.generate(context),
  },
  {
    name: "tanstack-query",
    summary: "tanstack-query.ts (TanStack Query options per method, on @tanstack/query-core)",
    requires: ["client"],
    byDefault: false,
    generate: async (context) => (await import("./tanstack-query.js")).tanstackQueryTarget.generate(context),
  },
];

/** What the targets mean when none are chosen. */
export const defaultTargets: readonly string[] = builtinTargets
  .filter((target) => target.byDefault)
  .map((target) => target.name);

/** A `--targets` entry naming every default target at once, so a run can add to them: `default,openrpc`. */
export const defaultTargetsAlias = "default";

export class TargetError extends Error {
  override name = "TargetError";
}

/**
 * The built-in targets to run for `names` (an alias expanded, each one's requirements added),
 * in the built-in order, and the names of the requirements that were not asked for.
 */
export function resolveTargets(names: readonly string[]): { targets: BuiltinTarget[]; added: string[] } {
  const known = new Map(builtinTargets.map((target) => [target.name, target]));
  const asked = new Set(names.flatMap((name) => (name === defaultTargetsAlias ? defaultTargets : [name])));
  for (const name of asked)
    if (!known.has(name))
      throw new TargetError(
        `unknown target "${name}" (built-in: ${[defaultTargetsAlias, ...known.keys()].join(", ")}; a plugin of your own goes in --plugin)`,
      );
  const chosen = new Set<string>();
  const add = (name: string) => {
    if (chosen.has(name)) return;
    chosen.add(name);
    for (const required of known.get(name)!.requires) add(required);
  };
  for (const name of asked) add(name);
  return {
    targets: builtinTargets.filter((target) => chosen.has(target.name)),
    added: [...chosen].filter((name) => !asked.has(name)),
  };
}
