/**
 * A TCP proxy on 127.0.0.1 that cuts connections mid-stream, as a network change or a proxy's
 * timeout does. Each response is cut or not at random (`chance`); one that is, only after it
 * has carried a whole SSE event with an id (the priming event of a POST, a frame of a resume),
 * at a random byte past that point, so every cut leaves the client something to resume from:
 * before that, a cut is §13.1's transport death. `anchor: "data"` cuts after any event instead.
 * It keeps what the server sent on each connection, so a test can compare the bytes.
 */
import { createServer, connect, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";

export interface CuttingProxy {
  readonly url: string;
  /** Connections cut so far. */
  readonly cuts: number;
  /** What the server sent on each connection so far (the status line, headers and body), in the order they opened. */
  received(): string[];
  close(): Promise<void>;
}

/**
 * `target` is an RCP base URL; `chance` the share of responses cut; a cut falls within `span`
 * bytes after the `events`-th id'd event (1: the first); after `maxCuts` cuts, none; `onCut`
 * hears each cut as it is made.
 */
export async function cuttingProxy(
  target: string,
  {
    chance = 0.5,
    span = 600,
    anchor = "id",
    events = 1,
    maxCuts = Infinity,
    onCut,
  }: {
    chance?: number;
    span?: number;
    anchor?: "id" | "data";
    events?: number;
    maxCuts?: number;
    onCut?: () => void;
  } = {},
): Promise<CuttingProxy> {
  const event = anchor === "id" ? /\nid: [^\n]*\n(?:[^\n]+\n)*\n/g : /data: [^\n]*\n\n/g;
  const { hostname, port, pathname } = new URL(target);
  const sockets = new Set<Socket>();
  const received: Buffer[][] = [];
  let cuts = 0;
  const server: Server = createServer((client) => {
    const upstream = connect(Number(port), hostname);
    const sent: Buffer[] = [];
    received.push(sent);
    sockets.add(client).add(upstream);
    const close = (): void => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on("error", close).on("close", close);
    upstream.on("error", close).on("close", close);
    client.pipe(upstream);
    let cutting = false;
    let seen = "";
    let forwarded = 0;
    let budget: number | undefined;
    upstream.on("data", (chunk: Buffer) => {
      sent.push(chunk);
      // A kept-alive connection carries one response after another: each is cut or not anew.
      if (chunk.subarray(0, 9).toString("latin1") === "HTTP/1.1 ") {
        cutting = cuts < maxCuts && Math.random() < chance;
        seen = "";
        forwarded = 0;
        budget = undefined;
      }
      if (!cutting) return void client.write(chunk);
      if (budget === undefined) {
        seen += chunk.toString("latin1");
        const match = [...seen.matchAll(event)][events - 1];
        if (match !== undefined) budget = match.index + match[0].length + Math.floor(Math.random() * span);
      }
      if (budget !== undefined && forwarded + chunk.length >= budget) {
        client.write(chunk.subarray(0, budget - forwarded), () => {
          cuts++;
          onCut?.();
          close();
        });
        upstream.pause();
        return;
      }
      forwarded += chunk.length;
      client.write(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}${pathname}`,
    get cuts() {
      return cuts;
    },
    received: () => received.map((chunks) => Buffer.concat(chunks).toString("utf8")),
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
