/**
 * `nodeHttpExchange()` on its own, against hand-written responses from a raw socket peer on
 * 127.0.0.1: what goes on the wire, interim responses, keep-alive reuse and the idle-close
 * race, aborts and cancelling, backpressure, and connections left to the process. What a call
 * makes of each framing, malformed or not, is in http-responses.test.ts, over fetch too.
 */
import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { HttpReply } from "../../../runtime/src/client/http-exchange.js";
import { nodeHttpExchange, type NodeHttpExchange } from "../../../runtime/src/client/node-http-exchange.js";
import { lengthResponse, startRawPeer, type Answer, type RawPeer } from "../../fixtures/client-peers/raw-http-peer.js";
import { entryPath } from "../../fixtures/entry.js";

let peer: RawPeer | undefined;
let exchange: NodeHttpExchange;
afterEach(async () => {
  exchange?.close();
  await peer?.close();
  peer = undefined;
});

async function rawPeer(answer: Answer): Promise<RawPeer> {
  peer = await startRawPeer(answer);
  exchange = nodeHttpExchange();
  return peer;
}

function post(
  url = peer!.url,
  options: { headers?: Record<string, string>; body?: string; signal?: AbortSignal } = {},
): Promise<HttpReply> {
  return exchange({
    url,
    headers: options.headers ?? { "Content-Type": "application/json" },
    body: options.body ?? "{}",
    signal: options.signal ?? new AbortController().signal,
  });
}

async function text(reply: HttpReply): Promise<string> {
  const chunks: Uint8Array[] = [];
  for (;;) {
    const { done, value } = await reply.body!.read();
    if (done) return Buffer.concat(chunks).toString("utf8");
    chunks.push(value);
  }
}

const reply =
  (response: string): Answer =>
  (request) =>
    request.socket.write(response);
const nextTick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe("requests", () => {
  it("go out as POST with Host, Content-Length, the caller's headers and the body; framing headers of the caller's are dropped", async () => {
    await rawPeer(reply(lengthResponse("{}")));
    const body = JSON.stringify({ text: "héllo" });
    const headers = {
      Accept: "application/json",
      "X-Trace": "t1",
      "Transfer-Encoding": "chunked",
      "Content-Length": "1",
    };
    await text(await post(`${peer!.url}?q=1`, { headers, body }));
    const [request] = peer!.requests;
    expect(request!.raw.split("\r\n")[0]).toBe("POST /rcp/search?q=1 HTTP/1.1");
    expect(request!.headers).toMatchObject({
      host: `127.0.0.1:${new URL(peer!.url).port}`,
      "content-length": String(Buffer.byteLength(body)),
      accept: "application/json",
      "x-trace": "t1",
    });
    expect(request!.headers).not.toHaveProperty("transfer-encoding");
    expect(request!.body).toBe(body);
  });

  it("refuse a header value that would split the request, before anything is sent", async () => {
    await rawPeer(reply(lengthResponse("{}")));
    await expect(post(peer!.url, { headers: { "X-Evil": "a\r\nX-Injected: 1" } })).rejects.toThrow(/Invalid character/);
    await expect(post(peer!.url, { headers: { "Bad Name": "1" } })).rejects.toThrow(/must be a valid HTTP token/);
    expect(peer!.requests).toHaveLength(0);
  });

  it("reject a URL that is not http: or https:", async () => {
    await rawPeer(reply(lengthResponse("{}")));
    await expect(post("ftp://127.0.0.1/rcp")).rejects.toThrow("not an http: or https: URL");
  });
});

describe("responses", () => {
  it("1xx interim responses (100 Continue, 103 Early Hints) are skipped", async () => {
    await rawPeer(
      reply(`HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n${lengthResponse("final")}`),
    );
    const answer = await post();
    expect(answer.status).toBe(200);
    expect(answer.header("link")).toBeNull();
    expect(await text(answer)).toBe("final");
  });

  it("101 Switching Protocols to a POST that asked for no upgrade rejects, and closes the connection", async () => {
    await rawPeer(reply("HTTP/1.1 101 Switching Protocols\r\nUpgrade: h2c\r\n\r\n"));
    await expect(post()).rejects.toThrow(/101 to a request that asked for no upgrade/);
    await vi.waitFor(() => expect(peer!.closed.has(0)).toBe(true));
  });

  it("Connection: close from the server (or an HTTP/1.0 answer) closes the connection after the body", async () => {
    await rawPeer((request) =>
      request.socket.write(
        request.connection === 0
          ? lengthResponse("one", "Connection: close\r\n")
          : "HTTP/1.0 200 OK\r\nContent-Length: 3\r\n\r\ntwo",
      ),
    );
    expect(await text(await post())).toBe("one");
    expect(await text(await post())).toBe("two");
    expect(await text(await post())).toBe("two");
    expect(peer!.connections).toHaveLength(3);
    await vi.waitFor(() => expect(peer!.closed).toEqual(new Set([0, 1, 2])));
  });
});

describe("keep-alive", () => {
  it("requests one after another share one connection; concurrent ones each take their own, then reuse them", async () => {
    await rawPeer((request) => request.socket.write(lengthResponse(String(request.onConnection))));
    for (let call = 0; call < 4; call += 1) expect(await text(await post())).toBe(String(call));
    expect(peer!.connections).toHaveLength(1);
    await Promise.all([1, 2, 3].map(async () => text(await post())));
    await Promise.all([1, 2, 3].map(async () => text(await post())));
    expect(peer!.connections).toHaveLength(3);
  });

  it("a reused connection the server closes as the request arrives is retried once on a new one", async () => {
    await rawPeer((request) => {
      // The classic race: the server gives up on the idle connection just as a request is sent on it.
      if (request.onConnection === 1) request.socket.destroy();
      else request.socket.write(lengthResponse(`on ${request.connection}`));
    });
    expect(await text(await post())).toBe("on 0");
    expect(await text(await post())).toBe("on 1");
    expect(peer!.requests.map((request) => [request.connection, request.onConnection])).toEqual([
      [0, 0],
      [0, 1],
      [1, 0],
    ]);
  });

  it("a new connection closed before any answer is not retried: the request rejects", async () => {
    await rawPeer((request) => request.socket.destroy());
    await expect(post()).rejects.toThrow();
    expect(peer!.requests).toHaveLength(1);
  });

  it("an idle connection the server closed is not used again", async () => {
    await rawPeer((request) => request.socket.end(lengthResponse("bye")));
    expect(await text(await post())).toBe("bye");
    await vi.waitFor(() => expect(peer!.closed.has(0)).toBe(true));
    expect(await text(await post())).toBe("bye");
    expect(peer!.requests.map((request) => request.connection)).toEqual([0, 1]);
  });

  it("no more idle connections per host are kept than maxIdleSockets; the rest close", async () => {
    await rawPeer(reply(lengthResponse("{}")));
    exchange = nodeHttpExchange({ maxIdleSockets: 1 });
    await Promise.all([1, 2, 3].map(async () => text(await post())));
    await vi.waitFor(() => expect(peer!.closed.size).toBe(2));
    await Promise.all([1, 2, 3].map(async () => text(await post())));
    expect(peer!.connections).toHaveLength(5);
  });

  it("close() closes the idle connections", async () => {
    await rawPeer(reply(lengthResponse("{}")));
    await text(await post());
    exchange.close();
    await vi.waitFor(() => expect(peer!.closed.has(0)).toBe(true));
  });

  it("idle connections do not keep the process alive", async () => {
    const server = await keptAliveServer();
    const module = entryPath("runtime/src/client/node-http-exchange.ts");
    const script = `
      const { nodeHttpExchange } = await import(${JSON.stringify(module)});
      const reply = await nodeHttpExchange()({ url: ${JSON.stringify(server.url)}, headers: {}, body: "{}", signal: new AbortController().signal });
      for (let chunk = await reply.body.read(); !chunk.done; chunk = await reply.body.read());
      console.log("status", reply.status);`;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let output = "";
    child.stdout.on("data", (bytes) => (output += bytes));
    const code = await new Promise((resolve) => child.on("exit", resolve));
    await server.close();
    expect(code).toBe(0);
    expect(output).toBe("status 200\n");
  });
});

describe("aborts and cancelling", () => {
  it("an abort before the answer rejects with an AbortError carrying the reason, and closes the connection", async () => {
    await rawPeer(() => {});
    const controller = new AbortController();
    const pending = post(peer!.url, { signal: controller.signal });
    await vi.waitFor(() => expect(peer!.requests).toHaveLength(1));
    controller.abort(new Error("caller gave up"));
    const error = await pending.catch((caught: Error) => caught);
    expect(error).toMatchObject({ name: "AbortError", cause: { message: "caller gave up" } });
    await vi.waitFor(() => expect(peer!.closed.has(0)).toBe(true));
  });

  it("a signal aborted already sends nothing", async () => {
    await rawPeer(() => {});
    await expect(post(peer!.url, { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: "AbortError" });
    expect(peer!.connections).toHaveLength(0);
  });

  it("an abort during the body fails the read and closes the connection", async () => {
    await rawPeer((request) =>
      request.socket.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nfirst\r\n"),
    );
    const controller = new AbortController();
    const answer = await post(peer!.url, { signal: controller.signal });
    expect(Buffer.from((await answer.body!.read()).value!).toString()).toBe("first");
    const next = answer.body!.read();
    controller.abort();
    await expect(next).rejects.toThrow(/aborted/);
    await vi.waitFor(() => expect(peer!.closed.has(0)).toBe(true));
  });

  it("cancelling a body read in part closes its connection; the next request connects anew", async () => {
    await rawPeer((request) =>
      request.socket.write(
        "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n" + "x".repeat(request.connection * 100 + 10),
      ),
    );
    const answer = await post();
    await answer.body!.read();
    await answer.body!.cancel();
    await vi.waitFor(() => expect(peer!.closed.has(0)).toBe(true));
    expect(await text(await post())).toBe("x".repeat(100));
  });

  it("an abort after the body arrived in full changes nothing: the body reads to its end", async () => {
    await rawPeer(reply(lengthResponse("whole")));
    const controller = new AbortController();
    const answer = await post(peer!.url, { signal: controller.signal });
    await nextTick();
    controller.abort();
    expect(await text(answer)).toBe("whole");
  });
});

describe("streamed bodies", () => {
  it("a reader that falls behind pauses the connection, and the body still arrives whole", async () => {
    const size = 32 * 1024 * 1024;
    let written = false;
    await rawPeer((request) => {
      request.socket.write(`HTTP/1.1 200 OK\r\nContent-Length: ${size}\r\n\r\n`);
      request.socket.write(Buffer.alloc(size, 0x61), () => (written = true));
    });
    const answer = await post();
    await vi.waitFor(() => expect(peer!.connections[0]!.writableLength).toBeGreaterThan(0));
    await new Promise((resolve) => setTimeout(resolve, 200));
    // Not read by the client, so still queued at the server instead of buffered in the client.
    expect(written).toBe(false);
    let received = 0;
    for (let chunk = await answer.body!.read(); !chunk.done; chunk = await answer.body!.read())
      received += chunk.value.byteLength;
    expect(received).toBe(size);
    await vi.waitFor(() => expect(written).toBe(true));
  });
});

/** A node:http server echoing each JSON body, chunked when the query asks, keeping connections alive. */
async function keptAliveServer(): Promise<{ url: string; ports: Set<number>; close(): Promise<void> }> {
  const ports = new Set<number>();
  const server: Server = createServer((request, response) => {
    ports.add(request.socket.remotePort!);
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      const echo = JSON.stringify({ echo: JSON.parse(body) as unknown });
      if (request.url?.endsWith("chunked=1")) response.write(echo);
      else response.setHeader("Content-Length", Buffer.byteLength(echo));
      response.end(request.url?.endsWith("chunked=1") ? undefined : echo);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/rcp/search`,
    ports,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
