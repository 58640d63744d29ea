#!/usr/bin/env node
// A committed shim, so npm can link the `rcp-gen` command before dist/ is built (workspaces, git installs).
import "../dist/cli/main.js";
