/**
 * The stdio transport against a real child process (§5.1, §13.1): transport death fails
 * every pending call, EPIPE, EOF-as-shutdown with escalation on close, stderr handling and
 * write backpressure.
 */
import { once } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import type { BaseClient } from "../../../runtime/src/client/base-client.js";
import { stdioClientTransport, type StdioClientTransport } from "../../../runtime/src/client/stdio-transport.js";
import { TransportError } from "../../../runtime/src/client/transport.js";
import type { ClientTestMethods } from "../../fixtures/client-test-protocol.js";
import { connectedStdioClient, failureOf, ndjsonPeerTransport, searchCapabilities, testClient } from "./peers.js";
import { isAlive } from "../../process/is-alive.js";

let client: BaseClient<ClientTestMethods> | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

describe("transport death (§13.1)", () => {
  it("§13.1 the server exiting mid-call fails every pending call with a TransportError, and later calls too", async () => {
    client = await connectedStdioClient();
    const waiting = failureOf(client.call("search", { script: "never" }));
    const exiting = failureOf(client.call("search", { script: "exit" }));
    for (const error of [await waiting, await exiting]) {
      expect(error).toBeInstanceOf(TransportError);
      expect((error as Error).message).toBe("Server process exited (code 3)");
    }
    expect(await failureOf(client.call("ping", {}))).toBeInstanceOf(TransportError);
  });

  it("§13.1 EPIPE: a server that stops reading is treated as dead and the write's call fails", async () => {
    client = await connectedStdioClient({ capabilities: searchCapabilities, ignoreEof: true });
    await client.call("search", { script: "closeStdin" });
    const error = await failureOf(client.call("search", { script: "echo", padding: "x".repeat(1 << 20) }));
    expect(error).toBeInstanceOf(TransportError);
    expect((error as Error).message).toMatch(/EPIPE|stdin/);
    expect(await failureOf(client.call("ping", {}))).toBeInstanceOf(TransportError);
  });

  it("§5.1 a command that cannot be started fails connect() with a TransportError", async () => {
    client = testClient(stdioClientTransport({ command: "/nonexistent/rcp-server" }));
    const error = await failureOf(client.connect());
    expect(error).toBeInstanceOf(TransportError);
    expect((error as Error).message).toMatch(/Cannot start \/nonexistent\/rcp-server/);
  });
});

describe("close (§5.1, §7.12)", () => {
  it("§7.12 close() is EOF: the server sees stdin end and exits; pending calls fail with 'Client closed'", async () => {
    const transport = ndjsonPeerTransport(undefined, { stderr: "pipe" });
    client = testClient(transport);
    await client.connect();
    let stderr = "";
    transport.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const pending = failureOf(client.call("search", { script: "never" }));
    await client.close();
    expect(((await pending) as Error).message).toBe("Client closed");
    expect(stderr).toContain("ndjson-peer: stdin closed");
    expect(isAlive(transport.pid!)).toBe(false);
  });

  it("§7.12 close() while start() is under way: no server is spawned, and both settle", async () => {
    const transport = ndjsonPeerTransport();
    const starting = transport.start({ receive: () => {}, closed: () => {} });
    await transport.close();
    await starting;
    expect(transport.pid).toBeUndefined();
    await expect(transport.send({ jsonrpc: "2.0", method: "notifications/unheard-of", params: {} })).rejects.toThrow(
      "Transport closed",
    );
  });

  it("§7.12 a client closed while connecting fails the connect with 'Client closed' and leaves no server", async () => {
    const transport = ndjsonPeerTransport();
    client = testClient(transport);
    const connecting = failureOf(client.connect());
    await client.close();
    expect(((await connecting) as Error).message).toBe("Client closed");
    expect(transport.pid).toBeUndefined();
  });

  it("§5.1 a server that ignores EOF and SIGTERM is killed after the bounded wait", async () => {
    const transport = ndjsonPeerTransport(
      { capabilities: searchCapabilities, ignoreEof: true, ignoreSigterm: true },
      { exitTimeoutMs: 100 },
    );
    client = testClient(transport);
    await client.connect();
    await client.close();
    expect(isAlive(transport.pid!)).toBe(false);
  });
});

describe("stdio plumbing (§5.1)", () => {
  it("§5.1 stderr 'pipe' exposes the server's diagnostics, apart from the protocol", async () => {
    const transport = ndjsonPeerTransport(undefined, { stderr: "pipe" });
    client = testClient(transport);
    await client.connect();
    const [chunk] = (await once(transport.stderr!, "data")) as [Buffer];
    expect(chunk.toString()).toContain("ndjson-peer: ready");
  });

  it("§5.1 send() waits for the pipe to drain while the server is not reading", async () => {
    const transport: StdioClientTransport = ndjsonPeerTransport();
    const frames: unknown[] = [];
    let answered!: () => void;
    const pauseAnswered = new Promise<void>((resolve) => (answered = resolve));
    await transport.start({
      receive: (frame) => {
        frames.push(frame);
        answered();
      },
      closed: () => {},
    });
    const pause = { jsonrpc: "2.0" as const, id: 1, method: "search", params: { script: "pauseReading", ms: 1500 } };
    await transport.send(pause);
    await pauseAnswered;
    let written = false;
    const big = {
      jsonrpc: "2.0" as const,
      method: "notifications/unheard-of",
      params: { padding: "x".repeat(4 << 20) },
    };
    const sending = transport.send(big).then(() => (written = true));
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(written).toBe(false);
    await sending;
    expect(written).toBe(true);
    await transport.close();
  });
});
