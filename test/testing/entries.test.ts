/**
 * No entry of @rcp-gen/runtime reaches vitest, and the runtime does not declare it at all: an
 * optional peer of a production dependency is installed by npm, even with --omit=dev, once the
 * project has it (bench scenario 8 saw 48 packages). The matchers come from `rcp-gen/vitest`.
 * @opentelemetry/api is an optional peer only the `/otel` entry reaches. The built modules each
 * entry loads are followed through their static and dynamic imports.
 */
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { expect, it } from "vitest";
import { repoRoot } from "../generator/run-cli.js";

const dist = join(repoRoot, "runtime", "dist");

/** The fields of runtime/package.json these tests read. */
interface RuntimeManifest {
  exports: Record<string, string | { default: string }>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependenciesMeta: Record<string, unknown>;
}

const readRuntimeManifest = () =>
  JSON.parse(readFileSync(join(repoRoot, "runtime", "package.json"), "utf8")) as RuntimeManifest;

/** Bare specifiers reached from `entry` through relative imports. */
function packagesReached(entry: string): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const pending = [join(dist, entry)];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const source = readFileSync(file, "utf8");
    for (const [, specifier] of source.matchAll(/(?:from|import)\s*\(?\s*"([^"]+)"/g)) {
      if (specifier!.startsWith(".")) pending.push(resolve(dirname(file), specifier!));
      else packages.add(specifier!);
    }
  }
  return packages;
}

it("keeps vitest out of the runtime: no entry reaches it and the manifest does not name it", () => {
  const manifest = readRuntimeManifest();
  const entries = Object.values(manifest.exports).flatMap((target) =>
    typeof target === "object" ? [target.default.replace("./dist/", "")] : [],
  );
  expect(entries).toContain("testing/index.js");
  for (const entry of entries)
    expect(
      [...packagesReached(entry)].filter((name) => name.startsWith("vitest")),
      entry,
    ).toEqual([]);
  // The scan does see packages: the main entry reaches the SSE parser of the HTTP client.
  expect(packagesReached("index.js")).toContain("eventsource-parser");
  for (const field of ["dependencies", "peerDependencies", "optionalDependencies"] as const)
    expect(manifest[field] ?? {}, field).not.toHaveProperty("vitest");
});

it("keeps @opentelemetry/api, an optional peer, out of every entry but /otel", () => {
  for (const entry of [
    "index.js",
    "node/index.js",
    "federation/index.js",
    "testing/index.js",
    "codegen/server.js",
    "codegen/client.js",
  ])
    expect(
      [...packagesReached(entry)].filter((name) => name.startsWith("@opentelemetry/")),
      entry,
    ).toEqual([]);
  expect(packagesReached("otel/index.js")).toEqual(new Set(["@opentelemetry/api"]));
  const manifest = readRuntimeManifest();
  expect(manifest.dependencies).not.toHaveProperty("@opentelemetry/api");
  expect(manifest.peerDependenciesMeta["@opentelemetry/api"]).toEqual({ optional: true });
});

it("keeps the MCP SDK, optional peers, out of every entry but /mcp, which loads @modelcontextprotocol/node only to listen", () => {
  const manifest = readRuntimeManifest();
  const entries = Object.values(manifest.exports).flatMap((target) =>
    typeof target === "object" ? [target.default.replace("./dist/", "")] : [],
  );
  for (const entry of entries.filter((name) => name !== "mcp/index.js"))
    expect(
      [...packagesReached(entry)].filter((name) => name.startsWith("@modelcontextprotocol/")),
      entry,
    ).toEqual([]);
  expect(
    [...packagesReached("mcp/index.js")].filter((name) => name.startsWith("@modelcontextprotocol/")).sort(),
  ).toEqual(["@modelcontextprotocol/node", "@modelcontextprotocol/server", "@modelcontextprotocol/server/stdio"]);
  for (const name of ["@modelcontextprotocol/server", "@modelcontextprotocol/node"]) {
    expect(manifest.dependencies).not.toHaveProperty(name);
    expect(manifest.peerDependenciesMeta[name]).toEqual({ optional: true });
  }
});
