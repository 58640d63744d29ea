import { defineConfig } from "vitest/config";

const root = new URL("..", import.meta.url).pathname;

export default defineConfig({
  // In-process tests load the runtime package from its sources, the same modules their relative
  // imports of runtime/src reach (one RcpError class, one ServerCore); child processes run the
  // built package through the workspace link, as a user's would.
  resolve: {
    alias: [
      { find: /^@rcp-gen\/runtime$/, replacement: `${root}runtime/src/index.ts` },
      // The same entries as runtime/package.json's exports (and tsconfig.json's paths).
      { find: /^@rcp-gen\/runtime\/codegen$/, replacement: `${root}runtime/src/codegen/server.ts` },
      { find: /^@rcp-gen\/runtime\/codegen-(.+)$/, replacement: `${root}runtime/src/codegen/$1.ts` },
      { find: /^@rcp-gen\/runtime\/(.+)$/, replacement: `${root}runtime/src/$1/index.ts` },
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
