/**
 * A federation whose engines crash, hang or are unreachable (§16.2): a crashed stdio engine is
 * started again, every engine failing for any reason is -32010, and failures never tell the
 * caller where a private engine lives unless the federation is configured to.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RcpClient } from "../../generated/index.js";
import { Selector, type Federation } from "../../runtime/src/federation/index.js";
import { stdioConnector } from "../../runtime/src/node/index.js";
import { ENGINE_FIXTURE, registryFolder, startEngine, type ServerProcess } from "./processes.js";
import { isAlive } from "../process/is-alive.js";

const clientInfo = { name: "engine-faults-tests", version: "0.0.0" };
const registries = registryFolder();
const UNREACHABLE = "http://127.0.0.1:1/private/rcp";
let hanging: ServerProcess;
const federations: Federation<RcpClient>[] = [];

beforeAll(async () => {
  hanging = await startEngine("--behaviour", "hang");
});
afterAll(async () => {
  await Promise.all(federations.map((federation) => federation.close()));
  await hanging.stop();
  registries.remove();
});

function federationOver(engines: object[], exposeEndpoints?: boolean): Federation<RcpClient> {
  const path = registries.write(`rcp-${federations.length}.json`, { engines });
  const selector = new Selector(readFileSync(path, "utf8"), {
    client: RcpClient,
    clientInfo,
    stdio: stdioConnector({ stderr: "ignore" }),
  });
  const federation = selector.federation({}, exposeEndpoints === undefined ? {} : { exposeEndpoints });
  federations.push(federation);
  return federation;
}

describe("§16.2 a crashed stdio engine", () => {
  it("is started again: after the engine process is killed, the next calls recover", async () => {
    const pidFile = join(registries.write("pid-placeholder.json", {}), "..", "engine.pid");
    const federation = federationOver([
      {
        id: "local",
        transport: "stdio",
        command: [process.execPath, ENGINE_FIXTURE, "--stdio", "--pid-file", pidFile],
      },
    ]);
    expect((await federation.retrieve({ query: "sourdough", k: 2 })).hits).toHaveLength(2);
    const first = Number(readFileSync(pidFile, "utf8"));
    process.kill(first, "SIGKILL");
    while (isAlive(first)) await new Promise((resolve) => setTimeout(resolve, 20));
    let recovered = false;
    // Bounded: the first call after the crash may fail (it finds the pipe gone); a later one respawns.
    for (let attempt = 0; attempt < 20 && !recovered; attempt++) {
      const outcome = await federation.retrieve({ query: "sourdough", k: 2 }).catch((error: unknown) => error);
      recovered = !(outcome instanceof Error);
      if (!recovered) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(recovered).toBe(true);
    expect(Number(readFileSync(pidFile, "utf8"))).not.toBe(first);
  });
});

describe("§16.2 every engine failing", () => {
  it("is -32010 even when each one timed out, with each engine's own error in data", async () => {
    const federation = federationOver([{ id: "hanging", transport: "http", url: hanging.url }]);
    const error = await federation.retrieve({ query: "q", k: 2, _meta: { deadlineMs: 600 } }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: -32010, data: { engines: [{ id: "hanging", code: -32014 }] } });
  });
});

describe("§15.5 private engine endpoints stay private", () => {
  it("usage.notes and error.data.engines name the engine, never its URL", async () => {
    const federation = federationOver([
      { id: "private", transport: "http", url: UNREACHABLE },
      { id: "local", transport: "stdio", command: [process.execPath, ENGINE_FIXTURE, "--stdio"] },
    ]);
    const result = await federation.retrieve({ query: "sourdough", k: 2 });
    const notes = (result.usage?.notes ?? []).join("\n");
    expect(notes).toMatch(/^engine private: failed/m);
    expect(notes).not.toContain("127.0.0.1:1");
    expect(notes).not.toContain("/private/rcp");
    const alone = federationOver([{ id: "private", transport: "http", url: UNREACHABLE }]);
    const error = await alone.retrieve({ query: "q", k: 2 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: -32010, data: { engines: [{ id: "private" }] } });
    expect(JSON.stringify(error)).not.toContain("127.0.0.1:1");
    expect(JSON.stringify((error as { data: unknown }).data)).not.toContain("/private/rcp");
  });

  it("with exposeEndpoints the failure says where the engine is", async () => {
    const federation = federationOver([{ id: "private", transport: "http", url: UNREACHABLE }], true);
    const error = await federation.retrieve({ query: "q", k: 2 }).catch((e: unknown) => e);
    expect(JSON.stringify((error as { data: unknown }).data)).toContain("127.0.0.1:1");
  });
});
