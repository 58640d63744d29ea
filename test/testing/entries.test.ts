/**
 * vitest and @opentelemetry/api are optional peers of @rcp-gen/runtime: only the `/vitest` and
 * `/otel` entries may reach them. The built modules each entry loads are followed through their
 * static and dynamic imports.
 */
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { expect, it } from "vitest";
import { repoRoot } from "../generator/run-cli.js";

const dist = join(repoRoot, "runtime", "dist");

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

it("keeps vitest out of every entry but /vitest", () => {
  for (const entry of ["index.js", "node.js", "testing.js", "codegen.js", "codegen-client.js", "codegen-node.js"])
    expect(
      [...packagesReached(entry)].filter((name) => name.startsWith("vitest")),
      entry,
    ).toEqual([]);
  expect(packagesReached("vitest.js")).toContain("vitest");
  // The scan does see packages: the main entry reaches the SSE parser of the HTTP client.
  expect(packagesReached("index.js")).toContain("eventsource-parser");
  const manifest = JSON.parse(readFileSync(join(repoRoot, "runtime", "package.json"), "utf8"));
  expect(manifest.dependencies).not.toHaveProperty("vitest");
  expect(manifest.peerDependenciesMeta.vitest).toEqual({ optional: true });
});

it("keeps @opentelemetry/api, an optional peer, out of every entry but /otel", () => {
  for (const entry of ["index.js", "node.js", "federation.js", "testing.js", "codegen.js", "codegen-client.js"])
    expect(
      [...packagesReached(entry)].filter((name) => name.startsWith("@opentelemetry/")),
      entry,
    ).toEqual([]);
  expect(packagesReached("otel.js")).toEqual(new Set(["@opentelemetry/api"]));
  const manifest = JSON.parse(readFileSync(join(repoRoot, "runtime", "package.json"), "utf8"));
  expect(manifest.dependencies).not.toHaveProperty("@opentelemetry/api");
  expect(manifest.peerDependenciesMeta["@opentelemetry/api"]).toEqual({ optional: true });
});
