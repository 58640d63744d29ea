#!/usr/bin/env node
// A committed shim, so npm can link the `rcp-gen` command before dist/ is built (workspaces, git installs).
// `rcp-gen conform` loads the conformance suite alone, not the generator (ts-morph, prettier).
if (process.argv[2] === "conform") {
  const { conformCommand } = await import("../dist/cli/conform-command.js");
  process.exit(await conformCommand(process.argv.slice(3)));
} else await import("../dist/cli/main.js");
