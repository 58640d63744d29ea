#!/usr/bin/env node
// Copies the repository's schema/ into the rcp-gen package (generator/schema, git-ignored) at build
// and pack time: the package ships RCP/1 for `rcp-gen init` without a second copy kept by hand.
import { cpSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";

const source = fileURLToPath(new URL("../../schema", import.meta.url));
const target = fileURLToPath(new URL("../schema", import.meta.url));
rmSync(target, { recursive: true, force: true });
cpSync(source, target, { recursive: true });
