/**
 * CPU time of a process that is not ours to probe (HAProxy, Redis, `rcp-gen mcp` and the
 * engine it starts), read from /proc. Linux only, like the scenarios that use it.
 */
import { readFileSync } from "node:fs";

/** utime + stime of `pid`, in microseconds (clock ticks of 10 ms: measure over many requests). */
export function procCpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // utime and stime, fields 14 and 15 of stat(5), in clock ticks (100 per second on Linux).
  return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / 100;
}

/** The processes `pid` started (one level down). */
export function childPids(pid: number): number[] {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim();
  return children === "" ? [] : children.split(" ").map(Number);
}
