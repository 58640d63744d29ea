/** Paths of the compiled load generators, next to this file's compiled output. */
import { fileURLToPath } from "node:url";

export function loadScript(name: string): string {
  return fileURLToPath(new URL(`../load/${name}.js`, import.meta.url));
}
