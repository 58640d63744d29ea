// Rewrites src/load/meta-schema/checkers.ts, the loader's precompiled meta-schema validators,
// from the meta-schemas beside it (meta-checkers.ts). Run through `npm run checkers -w rcp-gen`.
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { metaCheckersCode } from "./meta-checkers.js";

writeFileSync(fileURLToPath(new URL("../src/load/meta-schema/checkers.ts", import.meta.url)), metaCheckersCode());
