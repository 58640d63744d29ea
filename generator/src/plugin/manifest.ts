/**
 * manifest.json, beside the generated files: the generator version, the schema folder's hash
 * and each schema file's, and the files generated. The one place hashes live, so that a
 * one-word edit of one schema file shows in a review as that file's hash here plus the lines
 * it changed in the files that print it, and nothing else. It also records the prettier options
 * the TypeScript files were formatted with (the output folder's config, or rcp-gen's defaults):
 * a change of config then shows here, beside the lines it reformatted.
 */
import { generatorVersion } from "../cli/version.js";
import type { LoadedSchemaFolder } from "../load/loader.js";
import { bannerMark, manifestName } from "./banner.js";
import type { PrettierOptions } from "./prettier-options.js";

export function manifestFile(
  folder: LoadedSchemaFolder,
  generated: readonly string[],
  command: string,
  prettierOptions: PrettierOptions,
): [string, string] {
  const manifest = {
    $comment: `${bannerMark} ${generatorVersion}: the hashes (sha256 of canonical JSON) of the schema the files listed here come from. Regenerate with: ${command}`,
    generator: `rcp-gen ${generatorVersion}`,
    schema: {
      sha256: folder.hash,
      files: Object.fromEntries([...folder.fileHashes].sort(([a], [b]) => (a < b ? -1 : 1))),
    },
    files: [...generated].sort(),
    prettier: Object.fromEntries(Object.entries(prettierOptions).sort(([a], [b]) => (a < b ? -1 : 1))),
  };
  return [manifestName, `${JSON.stringify(manifest, null, 2)}\n`];
}
