/**
 * Plain HTTP/1.1 requests for the hardening tests, one connection each (`Connection: close`),
 * so no keep-alive socket or timer outlives a request and the server's resource counts
 * stay comparable; plus a raw socket for bodies that arrive slowly or never.
 */
import { request } from "node:http";
import { connect } from "node:net";
import type { ErrorObject, JsonObject, RequestId } from "@rcp-gen/runtime";

export interface HttpReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export function postOnce(
  url: string,
  body: string | Buffer,
  headers: Record<string, string> = {},
  signal?: AbortSignal,
): Promise<HttpReply> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: "POST",
      agent: false,
      signal,
      headers: { "content-type": "application/json", connection: "close", ...headers },
    });
    req.once("error", reject);
    req.once("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.once("error", reject);
      res.once("end", () =>
        resolve({ status: res.statusCode!, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }),
      );
    });
    req.end(body);
  });
}

/**
 * A JSON-RPC response as a test reads it. Both members are typed as present: a test reads the
 * one it expects, and reading the other (undefined) fails that test, as it should.
 */
export interface RpcReply<Result = JsonObject> {
  id: RequestId | null;
  result: Result;
  error: ErrorObject;
}

/** One JSON-RPC response from a reply's text. */
export const parseReply = <Result = JsonObject>(text: string) => JSON.parse(text) as RpcReply<Result>;

/** Posts `body` and reads the reply's JSON (a response, or `RpcReply[]` for a batch); an empty body reads as undefined. */
export async function postJson<Reply = RpcReply>(
  url: string,
  body: string | Buffer,
): Promise<{ status: number; json: Reply }> {
  const reply = await postOnce(url, body);
  const json: unknown = reply.text === "" ? undefined : JSON.parse(reply.text);
  return { status: reply.status, json: json as Reply };
}

/** Writes `head` on a raw socket and keeps it open; resolves with all the server sent once it hangs up. */
export function rawExchange(
  port: number,
  head: string,
): { closed: Promise<string>; socket: ReturnType<typeof connect> } {
  const socket = connect(port, "127.0.0.1");
  socket.write(head);
  let received = "";
  socket.setEncoding("utf8").on("data", (text: string) => (received += text));
  const closed = new Promise<string>((resolve) => socket.once("close", () => resolve(received)));
  socket.once("error", () => {});
  return { closed, socket };
}
