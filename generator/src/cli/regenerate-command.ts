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
  const parts = ["npx rcp-gen"];
  if (flags.config !== undefined) parts.push("--config", asTyped(flags.config));
  if (flags.schema !== undefined) parts.push("--schema", asTyped(flags.schema));
  if (flags.out !== undefined) parts.push("--out", asTyped(flags.out));
  if (flags.runtime !== undefined && flags.runtime !== defaultRuntimeEntry) parts.push("--runtime", flags.runtime);
  if (flags.targets !== undefined) parts.push("--targets", flags.targets.join(","));
  for (const plugin of flags.plugins ?? []) parts.push("--plugin", asTyped(plugin));
  if (flags.examples !== undefined) parts.push("--examples", asTyped(flags.examples));
  return parts.join(" ");
}
