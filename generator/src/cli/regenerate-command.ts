/** The command quoted in every generated file's banner: what reproduces the run that wrote it. */
import { normalize, sep } from "node:path";
import { defaultRuntimeEntry } from "@rcp-gen/runtime/codegen-symbols";

const posix = (path: string) => path.split(sep).join("/");

/** A path as the user typed it, minus noise (`./schema/` -> `schema`), so banners do not depend on the machine. */
const asTyped = (path: string) => posix(normalize(path)).replace(/(.)\/$/, "$1");

export interface RegenerateFlags {
  schema?: string | undefined;
  out?: string | undefined;
  runtime?: string | undefined;
  config?: string | undefined;
  targets?: readonly string[] | undefined;
  plugins?: readonly string[] | undefined;
  examples?: string | undefined;
}

/** The flags that reproduce a run, as quoted in banners; `--runtime` only when it is not the default. */
export function regenerateCommand(flags: RegenerateFlags): string {
  const words: string[] = [];
  if (flags.config !== undefined) words.push("--config", asTyped(flags.config));
  if (flags.schema !== undefined) words.push("--schema", asTyped(flags.schema));
  if (flags.out !== undefined) words.push("--out", asTyped(flags.out));
  if (flags.runtime !== undefined && flags.runtime !== defaultRuntimeEntry) words.push("--runtime", flags.runtime);
  if (flags.targets !== undefined) words.push("--targets", flags.targets.join(","));
  for (const plugin of flags.plugins ?? []) words.push("--plugin", asTyped(plugin));
  if (flags.examples !== undefined) words.push("--examples", asTyped(flags.examples));
  return ["npx rcp-gen", ...words.map(shellWord)].join(" ");
}

/** A word quoted for a POSIX shell when it needs it (`my schema` -> `'my schema'`), so the command runs as printed. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}
