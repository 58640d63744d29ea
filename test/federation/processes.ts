/**
 * Real processes for the federation tests: fixture engines and federators listening on
 * 127.0.0.1 (port 0), their stderr read as JSON events, and registries written to a temp folder.
 * Each process gets its own process group, so stopping a federator also stops the stdio
 * engines it spawned.
 */
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const ENGINE_FIXTURE = entryPath("test/fixtures/federation/engine.ts");
import { DEMO_SERVE as SERVE } from "../demo/demo-child.js";
import { spawnAnnounced } from "../fixtures/announced.js";
import { entryPath } from "../fixtures/entry.js";

export { SERVE };
export { freePort } from "../net/free-port.js";

export interface ServerProcess {
  url: string;
  /** The JSON lines written to stderr so far. */
  events(): Record<string, unknown>[];
  stderr(): string;
  /** Resolves once `accept` holds for the events; fails after `timeoutMs` naming `what`. */
  waitFor(accept: (events: Record<string, unknown>[]) => boolean, what: string, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

/** `node <script> ...args`, which prints its base URL as the first stdout line. */
export async function startHttpProcess(script: string, args: readonly string[]): Promise<ServerProcess> {
  const { child, url, stderr, exited } = await spawnAnnounced(process.execPath, [script, ...args], {
    stdin: "ignore",
    detached: true,
  });
  const events = () =>
    stderr()
      .split("\n")
      .flatMap((line) => {
        try {
          const parsed: unknown = JSON.parse(line);
          // The build's TypeScript needs this assertion (an object is not a Record there); ESLint's TypeScript 6 does not.
          // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
          return typeof parsed === "object" && parsed !== null ? [parsed as Record<string, unknown>] : [];
        } catch {
          return [];
        }
      });
  return {
    url,
    events,
    stderr,
    async waitFor(accept, what, timeoutMs = 10_000) {
      const giveUp = Date.now() + timeoutMs;
      while (!accept(events())) {
        if (Date.now() > giveUp) throw new Error(`never saw ${what}; stderr:\n${stderr()}`);
        await new Promise((wake) => setTimeout(wake, 10));
      }
    },
    stop: () => stopGroup(child, exited),
  };
}

async function stopGroup(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid!, "SIGTERM");
  } catch {
    child.kill("SIGTERM");
  }
  const timer = setTimeout(() => child.kill("SIGKILL"), 3_000);
  await exited;
  clearTimeout(timer);
}

export function startEngine(...args: string[]): Promise<ServerProcess> {
  return startHttpProcess(ENGINE_FIXTURE, ["--port", "0", ...args]);
}

export function startFederator(registryPath: string, ...args: string[]): Promise<ServerProcess> {
  return startHttpProcess(SERVE, ["--federate", registryPath, "--port", "0", ...args]);
}

/** A temp folder for registries; `remove()` deletes it. */
export function registryFolder(): { write(name: string, registry: object): string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), "rcp-federation-"));
  return {
    write(name, registry) {
      const path = join(dir, name);
      writeFileSync(path, JSON.stringify(registry, null, 2));
      return path;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The `retrieve` events an engine logged, in order. */
export function retrieves(engine: ServerProcess): { meta: Record<string, unknown> }[] {
  return engine.events().filter((event) => event.event === "retrieve") as { meta: Record<string, unknown> }[];
}
