/**
 * The federating server as a user runs it (`serve --federate rcp.json`), fronting real engine
 * processes: a fast one, a slow one weighted 2, one that fails, one that hangs past its
 * deadline, and a stdio one it spawns itself. Reached over HTTP with the generated client.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectHttp, connectStdio, type Hit, type RcpClient, type RetrieveResult } from "../../generated/index.js";
import {
  ENGINE_FIXTURE,
  registryFolder,
  retrieves,
  startEngine,
  startFederator,
  type ServerProcess,
} from "./processes.js";

const clientInfo = { name: "federation-tests", version: "0.0.0" };
const query = "compost soil for tomato seedlings";
const registries = registryFolder();
let fast: ServerProcess, slow: ServerProcess, failing: ServerProcess, hanging: ServerProcess;
let federator: ServerProcess;
let client: RcpClient;

beforeAll(async () => {
  [fast, slow, failing, hanging] = await Promise.all([
    startEngine("--documents", "even"),
    startEngine("--stage-delay-ms", "40"),
    startEngine("--behaviour", "fail"),
    startEngine("--behaviour", "hang"),
  ]);
  const registry = registries.write("rcp.json", {
    engines: [
      { id: "fast", transport: "http", url: fast.url },
      { id: "slow", transport: "http", url: slow.url, weight: 2 },
      { id: "failing", transport: "http", url: failing.url },
      { id: "hanging", transport: "http", url: hanging.url },
      { id: "local", transport: "stdio", command: [process.execPath, ENGINE_FIXTURE, "--stdio", "--documents", "odd"] },
    ],
  });
  federator = await startFederator(registry, "--identity", "gateway");
  client = await connectHttp({ clientInfo, transport: { url: federator.url } });
});

afterAll(async () => {
  await client?.close();
  await Promise.all([federator, fast, slow, failing, hanging].map((process) => process?.stop()));
  registries.remove();
});

/** §16.3 computed here from the engines' own answers: Σ weight/(60+rank), then summed weight, then id. */
function expectedRrf(lists: { hits: Hit[]; weight: number }[], k: number): string[] {
  const fused = new Map<string, { score: number; weight: number }>();
  for (const { hits, weight } of lists)
    hits.forEach((hit, index) => {
      const entry = fused.get(String(hit.id)) ?? { score: 0, weight: 0 };
      fused.set(String(hit.id), { score: entry.score + weight / (60 + index + 1), weight: entry.weight + weight });
    });
  return [...fused]
    .sort(([a, x], [b, y]) => y.score - x.score || y.weight - x.weight || (a < b ? -1 : 1))
    .slice(0, k)
    .map(([id]) => id);
}

async function directAnswer(url: string | undefined, k: number): Promise<Hit[]> {
  const direct = url
    ? await connectHttp({ clientInfo, transport: { url } })
    : await connectStdio({
        clientInfo,
        transport: {
          command: process.execPath,
          args: [ENGINE_FIXTURE, "--stdio", "--documents", "odd"],
          stderr: "ignore",
        },
      });
  try {
    return (await direct.retrieve({ query, k })).hits;
  } finally {
    await direct.close();
  }
}

describe("a federated retrieve (§16.2, §16.3)", () => {
  let result: RetrieveResult;
  let elapsedMs: number;
  const progress: { progress: number; stage?: string; message?: string; hits?: number }[] = [];

  beforeAll(async () => {
    const started = performance.now();
    result = await client.retrieve(
      { query, k: 8, _meta: { deadlineMs: 1_500 } },
      {
        timeout: 10_000,
        onProgress: (event) => progress.push({ ...event, hits: event.partial?.hits?.length }),
      },
    );
    elapsedMs = performance.now() - started;
  });

  it("fuses the engines that answered by weighted RRF, in §16.3's order, each hit tagged with its origin", async () => {
    const [fastHits, slowHits, localHits] = await Promise.all([
      directAnswer(fast.url, 8),
      directAnswer(slow.url, 8),
      directAnswer(undefined, 8),
    ]);
    const lists = [
      { hits: fastHits, weight: 1 },
      { hits: slowHits, weight: 2 },
      { hits: localHits, weight: 1 },
    ];
    expect(result.hits.map((hit) => hit.id)).toEqual(expectedRrf(lists, 8));
    const origins = new Set(result.hits.map((hit) => (hit.meta as { engine: string }).engine));
    expect([...origins].every((origin) => ["fast", "slow", "local"].includes(origin))).toBe(true);
    for (const hit of result.hits) {
      const meta = hit.meta as { engine: string; engineRank: number; engines?: string[] };
      const list = { fast: fastHits, slow: slowHits, local: localHits }[meta.engine]!;
      expect(list[meta.engineRank - 1]?.id).toBe(hit.id);
    }
    // Scores are the fused ones: non-increasing.
    const scores = result.hits.map((hit) => hit.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it("succeeds without the failing and hanging engines and says so in usage.notes and _meta.degraded", () => {
    expect(result._meta?.degraded).toEqual(["failing", "hanging"]);
    const notes = result.usage?.notes ?? [];
    expect(notes).toContainEqual(
      expect.stringMatching(/^engine failing: failed after \d+ ms \(-32010 Backend unavailable: index offline\)$/),
    );
    expect(notes).toContainEqual(expect.stringMatching(/^engine hanging: timed out after \d+ ms \(-32014 /));
    expect(result.usage?.candidates).toBe(24);
  });

  it("gives every engine a strictly smaller deadline and the hop budget and path (§16.2), and cancels the one that hung", async () => {
    // It waited for the hanging engine's share of the 1500 ms, no longer.
    expect(elapsedMs).toBeGreaterThan(1_300);
    const local = federator.events().filter((event) => event.event === "retrieve");
    for (const received of [...[fast, slow, failing, hanging].map((engine) => retrieves(engine)[0]!), local[0]]) {
      const meta = received!.meta as { deadlineMs: number; federation: unknown };
      expect(meta.deadlineMs).toBeLessThan(1_500);
      expect(meta.deadlineMs).toBeGreaterThan(1_000);
      expect(meta.federation).toEqual({ depth: 2, path: ["gateway"] });
    }
    await hanging.waitFor((events) => events.some((event) => event.event === "aborted"), "the hanging engine aborted");
  });

  it("streams progress: each engine's stages under its name, then each answer with the hits fused so far (§9)", () => {
    const values = progress.map((event) => event.progress);
    expect(values).toEqual([...values].sort((a, b) => a - b));
    for (const engine of ["fast", "slow", "local"]) {
      expect(progress.some((event) => event.stage === "recall" && event.message?.startsWith(`${engine}: `))).toBe(true);
      expect(progress).toContainEqual(
        expect.objectContaining({
          stage: "fuse",
          message: expect.stringMatching(new RegExp(`^${engine} answered 8 hits`)) as unknown,
        }),
      );
    }
    expect(progress.at(-1)).toMatchObject({ progress: 1, stage: "fuse", hits: 8 });
  });
});

describe("the federating server itself", () => {
  it("advertises catalog and its engines' retrieve capabilities (§16.4) and lists them in catalog/list (§7.13)", async () => {
    expect(client.serverInfo?.name).toBe("rcp-federator");
    expect(client.serverCapabilities).toMatchObject({
      catalog: { engines: 5 },
      streaming: {},
      citations: {},
      retrieve: { modes: ["dense", "sparse", "hybrid"], maxK: 50, scoreFloor: 0 },
      filter: { fields: { year: "int", lang: "keyword" } },
    });
    expect(client.supports("rerank")).toBe(false);
    const catalog = await client.catalogList();
    expect(catalog.engines.map((engine) => [engine.id, engine.server.name])).toEqual([
      ["fast", "fixture-answer"],
      ["slow", "fixture-answer"],
      ["failing", "fixture-fail"],
      ["hanging", "fixture-hang"],
      ["local", "fixture-answer"],
    ]);
    expect(catalog.engines.every((engine) => engine.endpoint === undefined)).toBe(true);
  });

  it("asks engines for progress only when its own caller did (§9)", async () => {
    const before = retrieves(fast).length;
    // The hanging engine would hold each call to the default deadline: a short one keeps this quick.
    await client.retrieve({ query, k: 3, _meta: { deadlineMs: 800 } });
    await client.retrieve({ query, k: 3, _meta: { deadlineMs: 800 } }, { onProgress: () => {} });
    await fast.waitFor(
      (events) => events.filter((event) => event.event === "retrieve").length >= before + 2,
      "both retrieves",
    );
    const [quiet, streamed] = retrieves(fast).slice(before);
    expect(quiet!.meta).not.toHaveProperty("progressToken");
    expect(streamed!.meta).toHaveProperty("progressToken");
  });

  it("a deadline too short for any engine is -32014, not an outage (§13.1)", async () => {
    const call = client.retrieve({ query, k: 3, _meta: { deadlineMs: 1 } });
    await expect(call).rejects.toMatchObject({ code: -32014 });
  });

  it("cancelling the federated call cancels every engine still working on it (§7.14)", async () => {
    const count = (events: Record<string, unknown>[], kind: string) => events.filter((e) => e.event === kind).length;
    const working = [fast, slow, hanging, federator]; // the federator's stderr carries the stdio engine's
    const started = working.map((process) => count(process.events(), "retrieve"));
    const aborted = working.map((process) => count(process.events(), "aborted"));
    const abort = new AbortController();
    // The demo engines stall at their first stage for as long as the request asks (forwarded _meta).
    const call = client.retrieve({ query, k: 3 }, { signal: abort.signal, meta: { "x-demo-delayMs": 10_000 } });
    await Promise.all(
      working.map((process, index) =>
        process.waitFor((events) => count(events, "retrieve") > started[index]!, "the request reaching the engine"),
      ),
    );
    abort.abort();
    await expect(call).rejects.toMatchObject({ code: -32006 });
    await Promise.all(
      working.map((process, index) =>
        process.waitFor((events) => count(events, "aborted") > aborted[index]!, "the engine's call cancelled"),
      ),
    );
  });
});
