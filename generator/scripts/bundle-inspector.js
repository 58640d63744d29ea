#!/usr/bin/env node
// Bundles the page of `rcp-gen inspect` (src/inspect/page) into dist/inspect/page at build and
// pack time: one script and one style sheet, served by the inspector itself (no CDN, offline).
import { copyFileSync, mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const source = fileURLToPath(new URL("../src/inspect/page/", import.meta.url));
const target = fileURLToPath(new URL("../dist/inspect/page/", import.meta.url));
mkdirSync(target, { recursive: true });
await build({
  entryPoints: [`${source}main.ts`],
  outfile: `${target}page.js`,
  bundle: true,
  minify: true,
  format: "esm",
  platform: "browser",
  target: "es2022",
  legalComments: "none",
  logLevel: "warning",
});
copyFileSync(`${source}page.css`, `${target}page.css`);
