#!/usr/bin/env node
// Copies what the rcp-gen package ships from elsewhere in the repository, at build and pack time
// (both targets git-ignored), so no second copy is kept by hand: the repository's schema/
// (generator/schema, the RCP/1 `rcp-gen init` scaffolds with) and the Orama example engine's store
// (docs/examples/orama-engine/orama, the src/orama/ of `rcp-gen init --template orama`).
import { cpSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";

const copies = [
  ["../../schema", "../schema"],
  ["../../docs/examples/orama-engine/orama", "../templates/orama/src/orama"],
];
for (const [from, to] of copies) {
  const source = fileURLToPath(new URL(from, import.meta.url));
  const target = fileURLToPath(new URL(to, import.meta.url));
  rmSync(target, { recursive: true, force: true });
  cpSync(source, target, { recursive: true });
}
