/**
 * Preloaded (`node --import`) into a stdio server: on exit, writes to stderr which of the Node
 * built-ins a stdio server has no use for (HTTP serving, spawning processes) were loaded.
 */
import { UNUSED_BUILTINS_PREFIX } from "./probe.js";

/** Built-ins only listen() and the stdio client transport need; each costs milliseconds to load. */
const UNUSED_BY_STDIO = ["http", "child_process"];

process.on("exit", () => {
  const loaded = (process as unknown as { moduleLoadList: string[] }).moduleLoadList;
  const found = UNUSED_BY_STDIO.filter((name) => loaded.includes(`NativeModule ${name}`));
  process.stderr.write(`${UNUSED_BUILTINS_PREFIX}${found.join(",")}\n`);
});
