/**
 * The built-in targets: rcp-gen's own outputs, each a plugin loaded only when a run asks for
 * it (so `--targets openrpc` never loads json-schema-to-typescript or ajv's code generator),
 * and how a list of target names becomes the plugins to run, each with the targets it needs.
 */
import type { RcpGenPlugin } from "./plugin.js";

interface BuiltinTarget {
  readonly name: string;
  /** What it writes, for --help and errors. */
  readonly summary: string;
  /** Targets whose files this one's files import. */
  readonly requires: readonly string[];
  readonly load: () => Promise<RcpGenPlugin>;
}

/** In the order their files are listed. */
export const builtinTargets: readonly BuiltinTarget[] = [
  {
    name: "types",
    summary: "types.ts",
    requires: [],
    load: async () => (await import("../emit/emit-types.js")).typesTarget,
  },
  {
    name: "validators",
    summary: "validators.ts",
    requires: ["types"],
    load: async () => (await import("../emit/emit-validators.js")).validatorsTarget,
  },
  {
    name: "methods",
    summary: "methods.ts",
    requires: ["validators"],
    load: async () => (await import("../emit/emit-methods.js")).methodsTarget,
  },
  {
    name: "server",
    summary: "server.ts",
    requires: ["methods", "types"],
    load: async () => (await import("../emit/emit-server.js")).serverTarget,
  },
  {
    name: "client",
    summary: "client.ts",
    requires: ["methods", "types"],
    load: async () => (await import("../emit/emit-client.js")).clientTarget,
  },
  {
    name: "node",
    summary: "node.ts",
    requires: ["client"],
    load: async () => (await import("../emit/emit-node.js")).nodeTarget,
  },
  {
    name: "index",
    summary: "index.ts",
    requires: [],
    load: async () => (await import("../emit/emit-index.js")).indexTarget,
  },
  {
    name: "bundle",
    summary: "rcp.schema.json",
    requires: [],
    load: async () => (await import("../emit/emit-bundle.js")).bundleTarget,
  },
  {
    name: "openrpc",
    summary: "openrpc.json",
    requires: [],
    load: async () => (await import("../docs/openrpc.js")).openrpcTarget,
  },
  {
    name: "markdown",
    summary: "docs/README.md and docs/<method>.md",
    requires: [],
    load: async () => (await import("../docs/markdown.js")).markdownTarget,
  },
  {
    name: "mcp",
    summary: "mcp.ts (one MCP tool per method, for @rcp-gen/runtime/mcp)",
    requires: [],
    load: async () => (await import("../mcp/target.js")).mcpTarget,
  },
  {
    name: "tanstack-query",
    summary: "tanstack-query.ts (TanStack Query options per method, on @tanstack/query-core)",
    requires: ["client"],
    load: async () => (await import("../emit/emit-tanstack-query.js")).tanstackQueryTarget,
  },
];

/** What `--targets` means when it is not given: every TypeScript module and the bundle. */
export const defaultTargets: readonly string[] = [
  "types",
  "validators",
  "methods",
  "server",
  "client",
  "node",
  "index",
  "bundle",
];

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
