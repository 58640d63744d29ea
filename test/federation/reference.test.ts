/**
 * The federating server fronting one demo engine and the reference Python example server
 * (../shared/reference/rcp-ref, over HTTP), as §16 means: engines nobody here wrote.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectHttp, type RcpClient, type RetrieveResult } from "../../generated/index.js";
import { repoRoot } from "../generator/run-cli.js";
import { freePort, registryFolder, startEngine, startFederator, type ServerProcess } from "./processes.js";

const reference = join(repoRoot, "../shared/reference/rcp-ref");
const present = existsSync(join(reference, "examples/example_server.py"));
if (!present)
  console.log("federation/reference.test.ts skipped: ../shared/reference/rcp-ref is absent (it runs in CI)");

/** `example_server.py --http <port>`, once it accepts connections (it prints nothing). */
async function startReference(): Promise<{ url: string; stop(): void }> {
  const port = await freePort();
  const child: ChildProcess = spawn("python3", ["examples/example_server.py", "--http", String(port)], {
    cwd: reference,
    stdio: "ignore",
  });
  const giveUp = Date.now() + 10_000;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, "127.0.0.1", () => resolve(true)).once("error", () => resolve(false));
      socket.once("connect", () => socket.end());
    });
    if (open) break;
    if (Date.now() > giveUp || child.exitCode !== null) throw new Error("the reference server did not start");
    await new Promise((wake) => setTimeout(wake, 50));
  }
  return { url: `http://127.0.0.1:${port}/rcp`, stop: () => void child.kill() };
}

/**
 * Whether our generated client completes a handshake with the reference server, which sends an
 * `embed` capability without `identity` (a deviation its README lists): a strict client refuses
 * the whole handshake (-32603), a liberal one ignores that capability. Asked of a server of its
 * own, since the reference keeps one initialize per process (another listed deviation).
 */
async function referenceHandshake(): Promise<"accepted" | "refused"> {
  const probe = await startReference();
  try {
    const client = await connectHttp({ clientInfo: { name: "probe", version: "0" }, transport: { url: probe.url } });
    await client.close();
    return "accepted";
  } catch (error) {
    expect(error).toMatchObject({ code: -32603, message: "Malformed initialize result" });
    return "refused";
  } finally {
    probe.stop();
  }
}

describe.skipIf(!present)("a federator over the demo engine and the reference Python server", () => {
  const registries = registryFolder();
  const query = "eiffel tower in paris france";
  let demo: ServerProcess;
  let python: { url: string; stop(): void };
  let federator: ServerProcess;
  let client: RcpClient;
  let handshake: "accepted" | "refused";

  beforeAll(async () => {
    [demo, python, handshake] = await Promise.all([startEngine(), startReference(), referenceHandshake()]);
    const registry = registries.write("rcp.json", {
      engines: [
        { id: "demo", transport: "http", url: demo.url },
        { id: "reference", transport: "http", url: python.url },
      ],
    });
    federator = await startFederator(registry);
    client = await connectHttp({
      clientInfo: { name: "reference-tests", version: "0" },
      transport: { url: federator.url },
    });
  });

  afterAll(async () => {
    await client?.close();
    await Promise.all([federator?.stop(), demo?.stop()]);
    python?.stop();
    registries.remove();
  });

  it("fuses the reference server's hits with the demo engine's, each tagged with its origin", async () => {
    const result: RetrieveResult = await client.retrieve({ query, k: 6 });
    if (handshake === "accepted") {
      const fromReference = result.hits.filter((hit) => (hit.meta as { engine: string }).engine === "reference");
      // The reference's best document for the query, d1 (the Eiffel Tower), is among the fused hits.
      expect(fromReference.map((hit) => hit.id)).toContain("d1");
      expect(result.hits.some((hit) => (hit.meta as { engine: string }).engine === "demo")).toBe(true);
      expect(result._meta?.degraded).toBeUndefined();
      const catalog = await client.catalogList();
      expect(catalog.engines.map((engine) => [engine.id, engine.server.name])).toEqual([
        ["demo", "fixture-answer"],
        ["reference", "rcp-example"],
      ]);
      // Strict in what it sends: the reference's embed capability lacks identity, so it is left out.
      expect(Object.keys(catalog.engines[1]!.capabilities)).toEqual(["sparseEmbed", "rerank", "retrieve", "graph"]);
    } else {
      // Until the client is liberal about that capability: the demo engine answers, the reference is named.
      expect(federator.stderr()).toContain("engine reference did not connect (Malformed initialize result)");
      expect(result.hits.every((hit) => (hit.meta as { engine: string }).engine === "demo")).toBe(true);
      expect(result._meta?.degraded).toEqual(["reference"]);
      // The reconnect meets the reference's process-wide initialize state: -32600 (a listed deviation, §5.2).
      expect(result.usage?.notes).toContainEqual(
        expect.stringMatching(/^engine reference: failed after \d+ ms \(-32600 /),
      );
    }
  });
});
