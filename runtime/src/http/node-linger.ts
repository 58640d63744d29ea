/** Lingering close on a node:http socket, within the bounds of ./linger.ts (which says why). */
import type { Socket } from "node:net";
import { LINGER_IDLE_MS, LINGER_MAX_BYTES, LINGER_MAX_MS } from "./linger.js";

const lingering = new WeakSet<Socket>();

/** Whether `socket` is reading out a refused request: what its parser still says of those bytes is expected. */
export function isLingering(socket: Socket): boolean {
  return lingering.has(socket);
}

/**
 * Reads and discards what arrives on `socket` until the client stops sending (it half-closes or
 * goes quiet for LINGER_IDLE_MS) or a bound is reached, then calls `done` once. The returned
 * function ends the wait early, when the caller knows the rest has arrived.
 */
export function linger(socket: Socket, done: () => void): () => void {
  lingering.add(socket);
  let bytes = 0;
  let finished = false;
  const finish = (): void => {
    if (finished) return;
    finished = true;
    clearTimeout(idle);
    clearTimeout(cap);
    socket.off("data", onData);
    socket.off("end", finish);
    socket.off("close", finish);
    done();
  };
  const onData = (chunk: Buffer): void => {
    bytes += chunk.length;
    if (bytes > LINGER_MAX_BYTES) finish();
    else idle.refresh();
  };
  const idle = setTimeout(finish, LINGER_IDLE_MS);
  const cap = setTimeout(finish, LINGER_MAX_MS);
  if (socket.readableEnded || socket.destroyed) finish();
  else {
    socket.on("data", onData);
    socket.once("end", finish);
    socket.once("close", finish);
  }
  return finish;
}
