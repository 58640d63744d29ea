/** The command quoted in every generated file's banner: what reproduces the run that wrote it. */
import { normalize, sep } from "node:path";
import { defaultRuntimeEntry } from "@rcp-gen/runtime/codegen-symbols";

const posix = (path: string) => path.split(sep).join("/");

/** A path as the user typed it, minus noise (`./schema/` -> `schema`), so banners do not depend on the machine. */
const asTyped = (path: string) => posix(normalize(path)).replace(/(.)\/$/, "$1");

/** The flags that reproduce a run, as quoted in banners; `--runtime` only when it is not the default. */
export function regenerateCommand(flags: { schema?: string; out?: string; runtime?: string; config?: string }): string {
  const parts = ["npx rcp-gen"];
  if (flags.config !== undefined) parts.push("--config", asTyped(flags.config));
  if (flags.schema !== undefined) parts.push("--schema", asTyped(flags.schema));
  if (flags.out !== undefined) parts.push("--out", asTyped(flags.out));
  if (flags.runtime !== undefined && flags.runtime !== defaultRuntimeEntry) parts.push("--runtime", flags.runtime);
  return parts.join(" ");
}
