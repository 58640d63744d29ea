import { defineConfig } from "vitest/config";

const root = new URL("..", import.meta.url).pathname;

export default defineConfig({
  // In-process tests load the workspace packages from their sources, the same modules their relative
  // imports of runtime/src reach (one RcpError class, one ServerCore); child processes run the
  // built packages through the workspace links, as a user's would (their sources in the fast tier,
  // vitest.fast.config.ts).
  resolve: {
    alias: [
      { find: /^@rcp-gen\/runtime$/, replacement: `${root}runtime/src/index.ts` },
      // The same entries as runtime/package.json's exports (and tsconfig.json's paths).
      { find: /^@rcp-gen\/runtime\/codegen$/, replacement: `${root}runtime/src/codegen/server.ts` },
      { find: /^@rcp-gen\/runtime\/codegen-(.+)$/, replacement: `${root}runtime/src/codegen/$1.ts` },
      { find: /^@rcp-gen\/runtime\/(.+)$/, replacement: `${root}runtime/src/$1/index.ts` },
      // The same entries as generator/package.json's exports.
      { find: /^rcp-gen$/, replacement: `${root}generator/src/index.ts` },
      { find: /^rcp-gen\/vitest$/, replacement: `${root}generator/src/vitest.ts` },
      { find: /^rcp-gen\/(conform|mock)$/, replacement: `${root}generator/src/$1/index.ts` },
    ],
  },
  test: {
    root,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    // vitest's default on 2 cores is one worker; most files wait on child processes, so two halve the run.
    maxWorkers: 2,
    reporters: ["default"],
    include: ["test/**/*.test.ts"],
    // A worker runs file after file on the modules it loaded: a fresh module graph per file costs
    // more CPU than most files' own tests, and no module keeps state a later file could see.
    isolate: false,
  },
});
