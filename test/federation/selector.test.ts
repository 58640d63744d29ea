/**
 * The Selector (§16.1) over registries: validation errors that name the entry and the field,
 * choice by the registry's own fields and by what engines advertise, liveness fallback, and
 * a library Federation's partial-failure rules (§16.2) over engines it spawns itself.
 */
import { describe, expect, it } from "vitest";
import { RcpClient, type Registry } from "../../generated/index.js";
import { filter } from "@rcp-gen/runtime";
import { RegistryError, Selector, type EngineOutcome } from "@rcp-gen/runtime/federation";
import { stdioConnector } from "@rcp-gen/runtime/node";
import { ENGINE_FIXTURE, SERVE, freePort } from "./processes.js";

const clientInfo = { name: "selector-tests", version: "0.0.0" };
const options = { client: RcpClient, clientInfo, stdio: stdioConnector({ stderr: "ignore" }) };
const demo = (...args: string[]) => [process.execPath, SERVE, "--stdio", ...args];
const fixture = (...args: string[]) => [process.execPath, ENGINE_FIXTURE, "--stdio", ...args];

function registryError(registry: unknown): RegistryError {
  try {
    new Selector(registry, options);
  } catch (error) {
    expect(error).toBeInstanceOf(RegistryError);
    return error as RegistryError;
  }
  throw new Error("the registry was accepted");
}

describe("reading rcp.json (§16.1)", () => {
  const web = { id: "web", transport: "http", url: "http://127.0.0.1:8000/rcp" };

  it.each([
    ["not JSON", "{ engines: [", "", /^not JSON: /],
    ["no engines", {}, "engines", /must have required property 'engines'/],
    ["an http engine without a url", { engines: [web, { id: "b", transport: "http" }] }, "engines.1.url", /'url'/],
    [
      "a stdio engine without a command",
      { engines: [{ id: "a", transport: "stdio" }] },
      "engines.0.command",
      /'command'/,
    ],
    ["an unknown transport", { engines: [{ id: "a", transport: "grpc", url: "x" }] }, "engines.0.transport", /allowed/],
    ["a negative weight", { engines: [{ ...web, weight: -1 }] }, "engines.0.weight", />= 0/],
    ["an empty id", { engines: [{ ...web, id: "" }] }, "engines.0.id", /fewer than 1/],
    ["a repeated id", { engines: [web, { ...web }] }, "engines.1.id", /^duplicate id, also engines\.0\.id$/],
    ["a url that is not http", { engines: [{ ...web, url: "file:///etc/passwd" }] }, "engines.0.url", /not file:/],
  ])("names the entry and field of %s", (_name, registry, field, problem) => {
    const error = registryError(registry);
    expect(error.field).toBe(field);
    expect(error.problem).toMatch(problem);
    expect(error.message).toMatch(new RegExp(`^rcp\\.json: ${field.replaceAll(".", "\\.") || "\\(root\\)"}`));
  });

  it("names the engine in the message when the entry has an id", () => {
    expect(registryError({ engines: [web, { id: "b", transport: "http" }] }).message).toBe(
      `rcp.json: engines.1.url (engine "b"): must have required property 'url'`,
    );
  });

  it("reads §16.1's example with its defaults, highest priority first, and filters on registry fields", () => {
    const registry: Registry = {
      engines: [
        { id: "docs", transport: "stdio", command: ["python3", "docs_server.py"] },
        { id: "web", transport: "http", url: "http://127.0.0.1:8000/rcp", priority: 5 },
        { id: "code", transport: "stdio", command: ["rcp-code-engine"], weight: 2.0, required: true },
      ],
    };
    const selector = new Selector(JSON.stringify(registry), options);
    expect(selector.engines).toEqual([
      { id: "web", transport: "http", url: "http://127.0.0.1:8000/rcp", weight: 1, required: false, priority: 5 },
      {
        id: "docs",
        transport: "stdio",
        command: ["python3", "docs_server.py"],
        weight: 1,
        required: false,
        priority: 0,
      },
      { id: "code", transport: "stdio", command: ["rcp-code-engine"], weight: 2, required: true, priority: 0 },
    ]);
    expect(selector.candidates({ transport: "stdio" }).map((entry) => entry.id)).toEqual(["docs", "code"]);
    expect(selector.candidates({ required: true }).map((entry) => entry.id)).toEqual(["code"]);
    expect(selector.candidates({ ids: ["code", "web"], where: (entry) => entry.weight > 1 })).toHaveLength(1);
  });
});

describe("choosing engines by what they advertise (§6)", async () => {
  const down = `http://127.0.0.1:${await freePort()}/rcp`;
  const selector = new Selector(
    {
      engines: [
        { id: "down", transport: "http", url: down, priority: 10 },
        { id: "eq-only", transport: "stdio", command: demo("--filter-operators", "eq,in"), priority: 5 },
        { id: "full", transport: "stdio", command: demo() },
      ],
    },
    options,
  );

  it("falls back past an engine that does not answer to the next by priority (§7.15)", async () => {
    const { entry, client } = await selector.select();
    expect(entry.id).toBe("eq-only");
    expect(client).toBeInstanceOf(RcpClient);
    await client.close();
  });

  it("picks the first engine whose gates and rules accept the options, as the engine would judge them", async () => {
    const { entry, client } = await selector.select({ accepts: { retrieve: { filter: filter.gte("year", 2020) } } });
    expect(entry.id).toBe("full");
    await client.close();
    const reranking = await selector.select({ capabilities: ["retrieve.mmr", "rerank"] });
    expect(reranking.entry.id).toBe("eq-only");
    await reranking.client.close();
  });

  it("says which engine fell short and why when none qualifies (-32003)", async () => {
    const error = await selector.select({ accepts: { retrieve: { mode: "dense", modality: "image" } } }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toMatchObject({ code: -32003, message: "No engine meets the criteria" });
    const detail = (error as { data: { detail: string } }).data.detail;
    expect(detail).toMatch(
      /^down: Backend unavailable: .*; eq-only: Option unsupported: modality; full: Option unsupported: modality$/,
    );
  });

  it("connects all at once, reporting the ones that did not answer", async () => {
    const { engines, failures } = await selector.connectAll();
    expect(engines.map(({ entry }) => entry.id)).toEqual(["eq-only", "full"]);
    expect(failures.map(({ entry, error }) => [entry.id, error.code])).toEqual([["down", -32010]]);
    await Promise.all(engines.map(({ client }) => client.close()));
  });

  it("needs a stdio connector for stdio engines, and says where to get one", async () => {
    const browserLike = new Selector(
      { engines: [{ id: "local", transport: "stdio", command: demo() }] },
      { client: RcpClient, clientInfo },
    );
    await expect(browserLike.connect("local")).rejects.toMatchObject({
      code: -32010,
      message: expect.stringContaining("stdioConnector from @rcp-gen/runtime/node") as unknown,
    });
  });
});

describe("a library Federation's partial failure (§16.2)", () => {
  const federationOf = (engines: object[]) => new Selector({ engines }, options).federation();

  it("fails as a whole with a required engine's own error, without waiting for the others", async () => {
    const federation = federationOf([
      { id: "slow", transport: "stdio", command: fixture("--stage-delay-ms", "5000") },
      { id: "broken", transport: "stdio", command: fixture("--behaviour", "fail"), required: true },
    ]);
    const outcomes: EngineOutcome[] = [];
    const started = performance.now();
    await expect(
      federation.retrieve({ query: "galaxy", k: 3 }, { onEngine: (outcome) => outcomes.push(outcome) }),
    ).rejects.toMatchObject({
      code: -32010,
      message: "Backend unavailable: index offline (required engine broken)",
      data: { engine: "broken", retryable: true },
    });
    expect(performance.now() - started).toBeLessThan(5_000);
    await federation.close();
    expect(outcomes.map((outcome) => [outcome.id, outcome.status])).toContainEqual(["broken", "failed"]);
  });

  it("fails early on a required engine's error with no callback given too", async () => {
    const federation = federationOf([
      { id: "slow", transport: "stdio", command: fixture("--stage-delay-ms", "5000") },
      { id: "broken", transport: "stdio", command: fixture("--behaviour", "fail"), required: true },
    ]);
    const started = performance.now();
    await expect(federation.retrieve({ query: "galaxy", k: 3 })).rejects.toMatchObject({
      code: -32010,
      data: { engine: "broken" },
    });
    expect(performance.now() - started).toBeLessThan(5_000);
    await federation.close();
  });

  it("is -32010 listing every engine when none answered, never an empty success", async () => {
    const federation = federationOf([
      { id: "a", transport: "stdio", command: fixture("--behaviour", "fail") },
      { id: "b", transport: "http", url: `http://127.0.0.1:${await freePort()}/rcp` },
    ]);
    const error = await federation.retrieve({ query: "galaxy", k: 3 }).catch((thrown: unknown) => thrown);
    await federation.close();
    expect(error).toMatchObject({ code: -32010, message: "Backend unavailable: no engine answered" });
    expect((error as { data: { engines: { id: string; code: number }[] } }).data.engines).toEqual([
      expect.objectContaining({ id: "a", code: -32010 }),
      expect.objectContaining({ id: "b", code: -32010 }),
    ]);
  });

  it("skips an engine whose capabilities rule the request out, and notes it", async () => {
    const federation = federationOf([
      { id: "sparse-only", transport: "stdio", command: fixture("--modes", "sparse") },
      { id: "any-mode", transport: "stdio", command: fixture() },
    ]);
    const result = await federation.retrieve({ query: "galaxy", k: 3, mode: "dense" });
    await federation.close();
    expect(result.hits.map((hit) => (hit.meta as { engine: string }).engine)).toEqual([
      "any-mode",
      "any-mode",
      "any-mode",
    ]);
    expect(result._meta?.degraded).toEqual(["sparse-only"]);
    expect(result.usage?.notes?.[0]).toMatch(
      /^engine sparse-only: skipped after \d+ ms \(-32005 Option unsupported: mode\)$/,
    );
  });
});
