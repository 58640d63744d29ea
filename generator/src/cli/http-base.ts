/**
 * A wrong RCP base URL, told once by every command that takes --http (conform, mcp, inspect):
 * before connecting, one `POST <base>/ping` (§5.2: each request is `POST <base>/<method>`); an
 * HTTP 404 means the base path is not an RCP endpoint (§5.2's status table), and the bases the
 * user probably meant (`/rcp` under the one given, then at the server's root: §5.2's default
 * base) are probed the same way, so the hint names one that answers.
 */
import type { Arguments } from "yargs";
import { engineTarget, type EngineTarget } from "./options.js";
import { UsageError } from "./usage-mistakes.js";

/** How long a probe waits; an engine that is slow to answer is left to the command's own timeouts. */
const probeTimeoutMs = 5000;

/** Resolves when `base` is not a 404; else throws the usage error naming the base that answers, if one does. */
export async function checkHttpBase(base: string): Promise<void> {
  if ((await probeStatus(base)) !== 404) return;
  const trimmed = base.replace(/\/+$/, "");
  const candidates = [...new Set([`${trimmed}/rcp`, new URL("/rcp", trimmed).href])];
  let meant: string | undefined;
  for (const candidate of candidates) {
    const status = await probeStatus(candidate);
    if (status !== undefined && status !== 404) {
      meant = candidate;
      break;
    }
  }
  throw new UsageError(
    `${base} is not an RCP endpoint: POST ${trimmed}/ping answered HTTP 404`,
    meant === undefined
      ? "--http takes the engine's RCP base URL, the path its POST <base>/<method> requests go to (often /rcp, §5.2)"
      : `did you mean --http ${meant}? It answers as an RCP endpoint`,
  );
}

/** The HTTP status of a ping to `base`, or undefined when nothing answered in time. */
async function probeStatus(base: string): Promise<number | undefined> {
  try {
    const response = await fetch(`${base.replace(/\/+$/, "")}/ping`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "ping" }),
      signal: AbortSignal.timeout(probeTimeoutMs),
    });
    await response.body?.cancel();
    return response.status;
  } catch {
    return undefined;
  }
}

/** The engine the command line names (options.ts), its --http base checked first. */
export async function checkedEngineTarget(argv: Arguments<{ http?: string; cwd?: string }>): Promise<EngineTarget> {
  const target = engineTarget(argv);
  if ("http" in target) await checkHttpBase(target.http);
  return target;
}
