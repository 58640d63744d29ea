/**
 * The interop matrix (docs/interoperability.md): code nobody here wrote, run as it ships.
 * Our generated client drives the reference Python example server (stdio and HTTP), the
 * reference Node SDK example server (stdio) and the reference streaming example (HTTP + SSE),
 * calling every method each advertises; the reference Python and Node clients drive our demo
 * engine over stdio and HTTP, calling every method it advertises. Where the reference deviates
 * from the spec (its README lists how), the test asserts what we document and names the
 * deviation. One server process per reference implementation and transport, shared by its cases.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectHttp, connectStdio, type RcpClient } from "../../generated/index.js";
import type { ClientDiagnostic } from "../../runtime/src/client/tolerance.js";
import type { ReceivedProgress } from "../../runtime/src/protocol/types.js";
import {
  announceSkip,
  demoOverHttp,
  DEMO_SERVE,
  freePort,
  listening,
  PYTHON,
  reference,
  referencePresent,
  start,
  DRIVERS,
  type Child,
} from "./reference.js";

const suite = referencePresent ? describe : describe.skip;
if (!referencePresent) announceSkip();

interface Connected {
  client: RcpClient;
  diagnostics: ClientDiagnostic[];
}

const clientInfo = { name: "rcp-gen-interop", version: "1.0.0" };
const kinds = (diagnostics: ClientDiagnostic[]) =>
  diagnostics.map(({ kind, method, capability }) => [kind, method, capability ?? null]);

async function ours(connect: (onDiagnostic: (d: ClientDiagnostic) => void) => Promise<RcpClient>): Promise<Connected> {
  const diagnostics: ClientDiagnostic[] = [];
  return { client: await connect((diagnostic) => diagnostics.push(diagnostic)), diagnostics };
}

/** A reference Python server on a port we chose (it cannot report one it chose). */
async function pythonHttpServer(script: string): Promise<{ url: string; child: Child }> {
  const port = await freePort();
  const child = start(PYTHON, ["-c", script.replace("PORT", String(port))]);
  await listening(port, child);
  return { url: `http://127.0.0.1:${port}/rcp`, child };
}

suite("interop: our generated client drives the reference servers", () => {
  describe.each(["stdio", "http"] as const)("the reference Python example server over %s", (transport) => {
    let server: Connected;
    let http: { url: string; child: Child } | undefined;
    beforeAll(async () => {
      if (transport === "http") {
        const script = `import sys; sys.path.insert(0, "examples"); import example_server; example_server.build().serve_http(PORT)`;
        http = await pythonHttpServer(script);
      }
      server = await ours((onDiagnostic) =>
        http === undefined
          ? connectStdio({
              clientInfo,
              onDiagnostic,
              transport: { command: PYTHON, args: [reference.pythonExampleServer] },
            })
          : connectHttp({ clientInfo, onDiagnostic, transport: { url: http.url } }),
      );
    });
    afterAll(async () => {
      await server?.client.close();
      http?.child.stop();
    });

    it("deviation 'embed capability omits identity' (§6 table): embed is set aside and reported; the other capabilities stand", async () => {
      const { client, diagnostics } = server;
      expect(client.serverInfo).toEqual({ name: "rcp-example", version: "1.0.0" });
      expect(client.conformance).toBe("L2");
      expect(Object.keys(client.serverCapabilities!).sort()).toEqual(["graph", "rerank", "retrieve", "sparseEmbed"]);
      expect(diagnostics[0]).toMatchObject({
        kind: "capability",
        capability: "embed",
        problem: "capabilities.embed: must have required property 'identity'",
      });
      await expect(client.embed({ inputs: ["hello"] })).rejects.toMatchObject({ code: -32003 });
    });

    it("embed/sparse (§7.4), retrieve (§7.7), graph local and global (§7.9), info, ping", async () => {
      const { client } = server;
      const { sparse } = await client.embedSparse({ texts: ["eiffel tower", "photosynthesis"] });
      expect(sparse.map((vector) => vector.indices.length)).toEqual([2, 1]);
      const { hits } = await client.retrieve({ query: "landmark in the French capital", k: 2 });
      expect(hits.map((hit) => hit.id)).toEqual(["d4", "d1"]);
      expect(hits[0]!.citation).toMatchObject({ uri: "https://en.wikipedia.org/wiki/Paris" });
      expect(await client.graph({ op: "local", query: "eiffel", k: 1 })).toMatchObject({ hits: [{ id: "d1" }] });
      expect(await client.graph({ op: "global", query: "anything" })).toMatchObject({ communities: [{ id: "c0" }] });
      expect(await client.call("ping", { nonce: 7 })).toEqual({ nonce: 7 });
      expect((await client.call("info", {})).server).toEqual(client.serverInfo);
    });

    it("deviation 'rerank takes documents, answers results' (§7.6: passages in, scores out): delivered as received, reported", async () => {
      const { client, diagnostics } = server;
      const answer = (await client.rerank({ query: "paris", passages: ["Paris is in France", "tea"] })) as unknown;
      expect(answer).toEqual({ results: [] });
      expect(diagnostics).toContainEqual(
        expect.objectContaining({
          kind: "result",
          method: "rerank",
          problem: "result: must have required property 'scores'",
        }),
      );
    });

    it("deviation 'accepts unadvertised op values silently' (§7.9, §14.1: -32005): its non-result is delivered and reported", async () => {
      const { client, diagnostics } = server;
      expect(await client.graph({ op: "drift", query: "x" })).toEqual({ op: "drift", note: "unimplemented" });
      expect(kinds(diagnostics)).toContainEqual(["result", "graph", null]);
    });

    // Only over HTTP: a stdio server is one process per client anyway.
    if (transport === "http")
      it("deviation 'keeps initialize state for the whole process' (§5.2): a second client gets -32600, falls back to info, reports it", async () => {
        const second = await ours((onDiagnostic) =>
          connectHttp({ clientInfo, onDiagnostic, transport: { url: http!.url } }),
        );
        expect(second.client.supports("retrieve")).toBe(true);
        expect(kinds(second.diagnostics)).toEqual([
          ["session", "initialize", null],
          ["capability", "info", "embed"],
        ]);
        const strict = connectHttp({ clientInfo, strict: true, transport: { url: http!.url } });
        await expect(strict).rejects.toMatchObject({ code: -32600 });
        await second.client.close();
      });
  });

  describe("the reference Node SDK example server over stdio", () => {
    let server: Connected;
    beforeAll(async () => {
      server = await ours((onDiagnostic) =>
        connectStdio({
          clientInfo,
          onDiagnostic,
          transport: { command: process.execPath, args: [reference.nodeExampleServer] },
        }),
      );
    });
    afterAll(() => server?.client.close());

    it("deviation 'embed sends dimensions, no identity' (§6 table: dimension, identity): set aside and reported", async () => {
      const { client, diagnostics } = server;
      expect(client.supports("embed")).toBe(false);
      expect(client.supports("retrieve.modes")).toBe(true);
      expect(diagnostics[0]).toMatchObject({ kind: "capability", capability: "embed" });
      await expect(client.embed({ inputs: ["x"] })).rejects.toMatchObject({ code: -32003 });
    });

    it("retrieve (§7.7), graph local (§7.9), info, ping", async () => {
      const { client } = server;
      expect((await client.retrieve({ query: "tower in Paris", k: 2 })).hits[0]!.id).toBe("d1");
      expect(await client.graph({ op: "local", query: "tower", k: 1 })).toMatchObject({ hits: [{ id: "d1" }] });
      expect((await client.call("info", {})).server.name).toBe("rcp-example");
      expect(await client.call("ping", { nonce: "n" })).toEqual({ nonce: "n" });
    });

    it("deviation 'graph communities as a number' (§7.9: an array): delivered as received, reported", async () => {
      const { client, diagnostics } = server;
      const answer = (await client.graph({ op: "global", query: "x" })) as unknown;
      expect(answer).toMatchObject({ communities: 1 });
      expect(kinds(diagnostics)).toContainEqual(["result", "graph", null]);
    });

    it("shutdown (§7.12) is answered; the server then exits and the client says so", async () => {
      const { client } = server;
      expect(await client.call("shutdown", {})).toEqual({});
      await expect(client.call("ping", {})).rejects.toThrow(/Server process exited|Client closed/);
    });
  });

  describe("the reference streaming example over HTTP + SSE", () => {
    let server: Connected;
    let http: { url: string; child: Child };
    beforeAll(async () => {
      const script = `import sys; sys.path.insert(0, "examples"); import example_streaming; example_streaming.build_server().serve_http(PORT)`;
      http = await pythonHttpServer(script);
      server = await ours((onDiagnostic) => connectHttp({ clientInfo, onDiagnostic, transport: { url: http.url } }));
    });
    afterAll(async () => {
      await server?.client.close();
      http?.child.stop();
    });

    it("deviation 'partial is an array of ids' (§9: an object): every frame reaches onProgress flagged, then the result", async () => {
      const { client, diagnostics } = server;
      const events: ReceivedProgress[] = [];
      const { hits } = await client.retrieve(
        { query: "capital city of France", k: 3 },
        { onProgress: (e) => events.push(e) },
      );
      expect(events.map(({ progress, stage }) => [progress, stage])).toEqual([
        [0.33, "recall:dense"],
        [0.66, "fuse:rrf"],
        [1, "rerank"],
      ]);
      for (const event of events) {
        expect(event.partial).toBeUndefined();
        expect(event.malformedPartial).toEqual(expect.arrayContaining(["d2"]));
      }
      expect(hits[0]!.id).toBe("d2");
      expect(diagnostics).toEqual([
        expect.objectContaining({ kind: "progress", method: "retrieve", problem: "params.partial: must be object" }),
      ]);
      expect(client.tolerated).toMatchObject([{ kind: "progress", count: 3 }]);
    });
  });
});

suite("interop: the reference clients drive our demo engine", () => {
  let http: { url: string; child: Child };
  beforeAll(async () => {
    http = await demoOverHttp();
  });
  afterAll(() => http?.child.stop());

  const runs = [
    { client: "python", transport: "stdio" },
    { client: "node", transport: "stdio" },
    { client: "python", transport: "http" },
    { client: "node", transport: "http" },
  ] as const;

  it.concurrent.each(runs)(
    "the reference $client client over $transport: every advertised method answers",
    async ({ client, transport }) => {
      const target = transport === "stdio" ? ["stdio", process.execPath, DEMO_SERVE, "--stdio"] : ["http", http.url];
      const report = await DRIVERS[client](target);
      expect(report.capabilities).toEqual([
        "citations",
        "embed",
        "filter",
        "index",
        "log",
        "pagination",
        "rerank",
        "retrieve",
        "sparseEmbed",
        "streaming",
        "transform",
      ]);
      const failed = Object.entries(report).filter(([, outcome]) => typeof outcome === "object" && "error" in outcome);
      expect(failed).toEqual([]);
      expect(report.embed!.ok).toEqual([expect.any(Array)]);
      expect(report.embed!.ok[0]).toHaveLength(256);
      // Deviation 'clients send inputs to embed/sparse' (§7.4: texts): our schema's x-rcp alias accepts it.
      expect(report["embed/sparse"]!.ok.sparse.map((vector: { indices: number[] }) => vector.indices.length)).toEqual([
        2, 1,
      ]);
      const [broth, telescope] = report.rerank!.ok as number[];
      expect(telescope).toBeGreaterThan(broth!);
      expect(report.retrieve!.ok.hits[0]!.id).toBe("doc-085");
      expect(report["query/transform"]!.ok).toEqual({ queries: ["database index"] });
      expect(report["index/add"]!.ok).toEqual({ ids: [`interop-${client}`] });
      expect(report["index/delete"]!.ok).toEqual({ deleted: 1 });
      expect(report.info!.ok.server).toEqual({ name: "rcp-demo-engine", version: "0.1.0" });
      expect(report.ping!.ok).toEqual({ nonce: client });
    },
  );
});
