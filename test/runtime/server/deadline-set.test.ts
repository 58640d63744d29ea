/**
 * The server's shared deadline timer (runtime/src/server/deadline-set.ts, §13.1): requests expire on
 * time, and once none waits the timer no longer holds the process open, though it is kept for
 * the next request instead of being cleared and set again for each.
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it, vi } from "vitest";
import { DeadlineSet, type Expiring } from "../../../runtime/src/server/deadline-set.js";
import { entryPath } from "../../fixtures/entry.js";

const deadlineSetModule = entryPath("runtime/src/server/deadline-set.ts");

/** Runs an ES module that imports DeadlineSet in a child process; its exit status and stdout. */
function runWithDeadlineSet(body: string): { status: number | null; stdout: string; timedOut: boolean } {
  const script = `const { DeadlineSet } = await import(${JSON.stringify(deadlineSetModule)});\n${body}`;
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], { timeout: 20_000, encoding: "utf8" });
  return { status: run.status, stdout: run.stdout, timedOut: run.error !== undefined };
}

function entry(set: DeadlineSet<Expiring>, expired: string[], name: string): Expiring {
  return { expiresAt: set.expiryFromNow(), expire: () => expired.push(name) };
}

describe("DeadlineSet", () => {
  it("expires each waiting entry after its duration, in order, and never a deleted one", () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
    try {
      const set = new DeadlineSet<Expiring>(40);
      const expired: string[] = [];
      const first = entry(set, expired, "first");
      set.add(first);
      set.delete(first);
      // Added after the set emptied: the kept timer fires at `first`'s time, then again for these.
      vi.advanceTimersByTime(10);
      set.add(entry(set, expired, "second"));
      vi.advanceTimersByTime(10);
      set.add(entry(set, expired, "third"));
      vi.advanceTimersByTime(29);
      expect(expired).toEqual([]);
      vi.advanceTimersByTime(1);
      expect(expired).toEqual(["second"]);
      vi.advanceTimersByTime(10);
      expect(expired).toEqual(["second", "third"]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("lets the process exit once nothing waits, even with a long deadline", () => {
    const run = runWithDeadlineSet(`
      const set = new DeadlineSet(600000);
      const waiting = { expiresAt: set.expiryFromNow(), expire() { process.exitCode = 3; } };
      set.add(waiting);
      setTimeout(() => set.delete(waiting), 20);
    `);
    expect(run).toEqual({ status: 0, stdout: "", timedOut: false });
  });

  it("holds the process open while an entry waits, and expires it", () => {
    const run = runWithDeadlineSet(`
      const set = new DeadlineSet(100);
      const gone = { expiresAt: set.expiryFromNow(), expire() { process.exitCode = 3; } };
      set.add(gone);
      set.delete(gone);
      setTimeout(() => set.add({ expiresAt: set.expiryFromNow(), expire() { process.stdout.write("expired"); } }), 20);
    `);
    expect(run).toEqual({ status: 0, stdout: "expired", timedOut: false });
  });
});
