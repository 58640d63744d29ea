/**
 * A browser bundle of a page's source, made as a user's build makes it: esbuild, platform
 * browser, ESM, generated/ and the runtime resolved from this repository. Shared by the bundle
 * test (test/web/bundle.test.ts) and the bundle benchmark (test/bench/scenarios/bundle.ts).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";

export interface BrowserBundle {
  readonly bytes: Uint8Array;
  readonly text: string;
  /** The files that contributed code, relative to the working directory. */
  readonly inputs: string[];
}

/** Writes `source` to `dir/<name>.ts` and bundles it; `minify` as a production build does. */
export async function browserBundle(dir: string, name: string, source: string, minify = false): Promise<BrowserBundle> {
  const entry = join(dir, `${name}.ts`);
  writeFileSync(entry, source);
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    platform: "browser",
    format: "esm",
    minify,
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  const output = Object.values(result.metafile.outputs)[0]!;
  const inputs = Object.entries(output.inputs).filter(([, input]) => input.bytesInOutput > 0);
  const file = result.outputFiles[0]!;
  return { bytes: file.contents, text: file.text, inputs: inputs.map(([path]) => path) };
}
