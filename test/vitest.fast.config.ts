/**
 * The fast tier, `npm run test:fast`: every test file except the slow ones listed here, run from
 * the sources with no build and no lint. In-process tests already load the packages from their
 * sources (vitest.config.ts's aliases); child processes start the .ts entry itself
 * (fixtures/entry.ts) through tsx, which NODE_OPTIONS loads into every child, and tsx maps the
 * workspace packages to their sources with tsconfig.json's paths wherever the child runs.
 * `npm test` runs every file, these included, against the build.
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { configDefaults, defineConfig, mergeConfig } from "vitest/config";
import shared from "./vitest.config.js";

const root = new URL("..", import.meta.url).pathname;

/**
 * What only `npm test` runs, by why: a file (or every file of a folder/) that needs the build, a
 * service or another runtime, is a campaign, or spends seconds of its own starting processes.
 */
const slowFiles = {
  // Packs and installs the packages, runs TypeDoc or the TypeScript compiler, or reads dist/.
  build: [
    "test/docs/api-reference.test.ts",
    "test/docs/readme-scope.test.ts",
    "test/docs/readme.test.ts",
    "test/evolve/npm-schema.test.ts",
    "test/generator/javascript.test.ts",
    "test/generator/validators.test.ts",
    "test/package/",
    "test/runtime/codegen-symbols.test.ts",
    "test/testing/entries.test.ts",
  ],
  // Chromium, Redis, HAProxy, the Python reference peers, Deno, Bun, workerd, bundlers.
  services: [
    "test/inspect/",
    "test/interop/",
    "test/mcp/resume.test.ts",
    "test/resume/",
    "test/scale/",
    "test/tanstack-query/browser.test.ts",
    "test/web/",
  ],
  // The benchmark harness and the fuzz campaign.
  campaigns: ["test/bench-smoke/", "test/fuzz/fuzz.test.ts"],
  // Engines, federators, MCP hosts or the CLI started again and again, or long waits on timers.
  processes: [
    "test/call/",
    "test/conform/broken.test.ts",
    "test/conform/cli-usage.test.ts",
    "test/conform/demo.test.ts",
    "test/conform/describe-conformance.test.ts",
    "test/conform/federator.test.ts",
    "test/conform/probe-query.test.ts",
    "test/conform/reference.test.ts",
    "test/conform/scaffold.test.ts",
    "test/demo/quickstart.test.ts",
    "test/demo/server-conformance.test.ts",
    "test/demo/server-methods.test.ts",
    "test/demo/server-retrieve.test.ts",
    "test/demo/server-streaming.test.ts",
    "test/demo/transform-and-corpus.test.ts",
    "test/evolve/add-method-cli.test.ts",
    "test/evolve/breaking-cli.test.ts",
    "test/evolve/breaking-rules.test.ts",
    "test/evolve/lint.test.ts",
    "test/extend/client-interceptors.test.ts",
    "test/extend/identity.test.ts",
    "test/extend/retry.test.ts",
    "test/extend/server-interceptors.test.ts",
    "test/federation/",
    "test/filter/",
    "test/generator/add-method.test.ts",
    "test/generator/cli.test.ts",
    "test/generator/config.test.ts",
    "test/generator/error-table.test.ts",
    "test/generator/http-base.test.ts",
    "test/generator/init.test.ts",
    "test/generator/plugins.test.ts",
    "test/generator/schema-file-types.test.ts",
    "test/generator/settings-every-command.test.ts",
    "test/generator/usage.test.ts",
    "test/generator/watch.test.ts",
    "test/hardening/abuse-guard.test.ts",
    "test/hardening/client-faults.test.ts",
    "test/hardening/generator-faults.test.ts",
    "test/hardening/handler-faults.test.ts",
    "test/hardening/http-abuse.test.ts",
    "test/hardening/http-disconnect.test.ts",
    "test/hardening/http-early-answers.test.ts",
    "test/hardening/http-flood.test.ts",
    "test/hardening/http-input.test.ts",
    "test/hardening/http-sessions.test.ts",
    "test/hardening/slow-reader.test.ts",
    "test/hardening/small-defects.test.ts",
    "test/hardening/stdio-backpressure.test.ts",
    "test/hardening/stdio-input.test.ts",
    "test/mcp/engines.test.ts",
    "test/mcp/external-tools.test.ts",
    "test/mcp/http.test.ts",
    "test/mcp/schema-added-tool.test.ts",
    "test/mcp/sdk-v1-stdio.test.ts",
    "test/mcp/sdk-v2-stdio.test.ts",
    "test/mcp/tools.test.ts",
    "test/mock/",
    "test/orama-engine/",
    "test/runtime/client/end-to-end.test.ts",
    "test/runtime/client/stdio-calls.test.ts",
    "test/runtime/client/stdio-transport.test.ts",
    "test/runtime/server/stdio-session.test.ts",
    "test/runtime/server/stdio-streaming.test.ts",
    "test/tanstack-query/target.test.ts",
  ],
} satisfies Record<string, string[]>;

/** The slow files and folders (ending in /), from the repository root. */
export const slow = Object.values(slowFiles).flat();
const stale = slow.filter((path) => !existsSync(`${root}${path}`));
if (stale.length > 0) throw new Error(`test/vitest.fast.config.ts lists paths that do not exist: ${stale.join(", ")}`);

const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;

export default mergeConfig(
  shared,
  defineConfig({
    test: {
      exclude: [...configDefaults.exclude, ...slow.map((path) => (path.endsWith("/") ? `${path}**` : path))],
      env: {
        RCP_TEST_FROM_SOURCES: "1",
        NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --import=${tsx}`.trim(),
        TSX_TSCONFIG_PATH: `${root}tsconfig.json`,
      },
    },
  }),
);
