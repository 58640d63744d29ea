/**
 * The demo engine's generated server on Web-standard hosts (issue 13): docs/examples/demo-engine/
 * worker.ts (a module whose default export is `{ fetch }` calling `server.fetch`) bundled once
 * with esbuild for a worker (no Node built-in resolves; corpus.json inlined), then served by Bun
 * and Deno (test/fixtures/edge/host.js) and by Cloudflare's workerd through miniflare, with no
 * Node compatibility flag (no Buffer, no process there). One client test drives all three: the
 * generated client over real HTTP on 127.0.0.1 gets a JSON answer and an SSE stream with
 * progress, each the same ranking as the engine in this Node process. Bun, Deno and miniflare
 * are root devDependencies: `npm ci` installs them, so they are never skipped.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { Miniflare } from "miniflare";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectHttp, connectMemory } from "../../generated/client.js";
import { createDemoServer } from "../../docs/examples/demo-engine/server.js";
import { repoRoot } from "../generator/run-cli.js";
import { startUrlProcess } from "./processes.js";
import { pythonUpload } from "../net/python-upload.js";

const scratch = mkdtempSync(join(tmpdir(), "rcp-edge-"));
const workerBundle = join(scratch, "worker.js");
const bin = (name: string) => join(repoRoot, "node_modules", ".bin", name);
const HOST_SCRIPT = join(repoRoot, "test", "fixtures", "edge", "host.js");
const QUERY = { query: "compost for tomatoes in a raised bed", k: 3 };

interface Host {
  readonly url: string;
  stop(): Promise<void>;
}

const hosts = new Map<string, Promise<Host>>();

beforeAll(async () => {
  for (const name of ["bun", "deno"])
    if (!existsSync(bin(name))) throw new Error(`node_modules/.bin/${name} is missing: run npm ci`);
  await build({
    entryPoints: [join(repoRoot, "docs", "examples", "demo-engine", "worker.ts")],
    bundle: true,
    platform: "browser",
    conditions: ["workerd", "worker"],
    format: "esm",
    outfile: workerBundle,
    logLevel: "silent",
  });
  hosts.set("bun", startUrlProcess(bin("bun"), [HOST_SCRIPT, workerBundle]));
  hosts.set(
    "deno",
    startUrlProcess(bin("deno"), ["run", "--allow-net", `--allow-read=${scratch}`, HOST_SCRIPT, workerBundle]),
  );
  hosts.set("workerd", startWorkerd());
  await Promise.allSettled(hosts.values());
}, 60_000);

afterAll(async () => {
  await Promise.allSettled([...hosts.values()].map(async (host) => (await host).stop()));
  rmSync(scratch, { recursive: true, force: true });
});

async function startWorkerd(): Promise<Host> {
  // modulesRoot: module names are paths below it, and workerd refuses ones climbing out of it.
  const miniflare = new Miniflare({
    modules: true,
    modulesRoot: scratch,
    scriptPath: workerBundle,
    compatibilityDate: "2025-06-01",
  });
  const url = await miniflare.ready;
  return { url: url.origin, stop: () => miniflare.dispose() };
}

/** The stages and ranking the same engine reports in this Node process. */
async function inNode(): Promise<{ stages: string[]; hits: Array<string | number> }> {
  const client = await connectMemory(createDemoServer());
  const stages: string[] = [];
  const result = await client.retrieve(QUERY, {
    onProgress: (event) => void stages.push(`${event.stage} ${event.progress}`),
  });
  await client.close();
  return { stages, hits: result.hits.map((hit) => hit.id) };
}

describe.each(["bun", "deno", "workerd"])("the demo engine's generated server on %s", (name) => {
  let base: string;
  const contentTypes: string[] = [];
  const recordingFetch: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    contentTypes.push(response.headers.get("content-type") ?? "");
    return response;
  };

  beforeAll(async () => {
    base = `${(await hosts.get(name)!).url}/rcp`;
  });

  it("answers a JSON call and streams an SSE retrieve with progress, ranking as on Node", async () => {
    const client = await connectHttp({
      clientInfo: { name: "edge-test", version: "1" },
      transport: { url: base, fetch: recordingFetch },
    });
    expect(client.serverInfo?.name).toBe("rcp-demo-engine");
    const expected = await inNode();

    contentTypes.length = 0;
    const answered = await client.retrieve(QUERY);
    expect(contentTypes).toEqual(["application/json"]);
    expect(answered.hits.map((hit) => hit.id)).toEqual(expected.hits);

    contentTypes.length = 0;
    const stages: string[] = [];
    const streamed = await client.retrieve(QUERY, {
      onProgress: (event) => void stages.push(`${event.stage} ${event.progress}`),
    });
    expect(contentTypes).toEqual(["text/event-stream"]);
    expect(stages.length).toBeGreaterThan(1);
    expect(stages).toEqual(expected.stages);
    expect(streamed.hits.map((hit) => hit.id)).toEqual(expected.hits);
    await client.close();
  });

  it("§15.5 a 413 reaches 40 parallel clients that send Connection: close and read after sending", async () => {
    // Over the default maxMessageBytes (4 MiB): the rest of each body is read out before the answer.
    const results = await pythonUpload(`${base}/ping`, Math.round(4.5 * 1024 * 1024), 40, "parallel");
    expect(results).toEqual(Array.from({ length: 40 }, () => [413, -32013]));
  }, 60_000);
});
