/**
 * The reading end of servers/probe.ts: asks a server process for its self-report (SIGUSR2) and
 * picks the answer out of its stderr, keeping the last other stderr lines for error messages.
 */
import type { ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { PROBE_PREFIX, WRITES_PREFIX, type ProbeReport } from "./servers/probe.js";

export class ProbeReader {
  private readonly waiters: Array<(report: ProbeReport) => void> = [];
  private readonly tail: string[] = [];
  /** The last report of servers/stamp-writes.ts, when preloaded: [yielded at, written at] per progress frame. */
  private writes: Array<[number, number]> = [];

  constructor(private readonly child: ChildProcess) {
    if (!child.stderr) throw new Error("probe needs the server's stderr piped");
    createInterface({ input: child.stderr }).on("line", (line) => this.read(line));
  }

  probe(timeoutMs = 10_000): Promise<ProbeReport> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no probe report within ${timeoutMs} ms`)), timeoutMs);
      this.waiters.push((report) => {
        clearTimeout(timer);
        resolve(report);
      });
      this.child.kill("SIGUSR2");
    });
  }

  /** With servers/stamp-writes.ts preloaded: the progress frames written since the last probe. */
  async progressWrites(timeoutMs = 10_000): Promise<Array<[number, number]>> {
    // Its line comes before the probe's: its SIGUSR2 listener was registered first.
    await this.probe(timeoutMs);
    return this.writes;
  }

  /** The server's last stderr lines other than probe reports. */
  stderr(): string {
    return this.tail.join("\n");
  }

  private read(line: string): void {
    if (line.startsWith(WRITES_PREFIX)) {
      this.writes = JSON.parse(line.slice(WRITES_PREFIX.length)) as Array<[number, number]>;
      return;
    }
    if (line.startsWith(PROBE_PREFIX)) {
      this.waiters.shift()?.(JSON.parse(line.slice(PROBE_PREFIX.length)) as ProbeReport);
      return;
    }
    this.tail.push(line);
    if (this.tail.length > 20) this.tail.shift();
  }
}

export function cpuMicrosBetween(before: ProbeReport, after: ProbeReport): number {
  return after.cpuUserMicros + after.cpuSystemMicros - before.cpuUserMicros - before.cpuSystemMicros;
}
