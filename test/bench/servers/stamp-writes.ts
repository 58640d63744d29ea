/**
 * Preloaded (`node --import`) into the SSE scenario's servers: notes when each progress frame was
 * handed to its socket, beside the yield time the frame carries (`params.message`), and reports
 * both on SIGUSR2, before the probe's own line. The scenario needs the server's side of the
 * timing: a reader that is descheduled longer than the interval reads a frame after the next
 * yield even when the server wrote it on time, so only the write time shows a frame that waited.
 */
import { Socket } from "node:net";
import { WRITES_PREFIX, sharedClockMs } from "./probe.js";

/** [yield time carried in the frame, time it was written], shared clock, in write order. */
const writes: Array<[number, number]> = [];
const STAMP = /"message":"(\d+(?:\.\d+)?)"/g;

// eslint-disable-next-line @typescript-eslint/unbound-method -- the original write, called below with each socket as `this`
const write = Socket.prototype.write;
Socket.prototype.write = function stampedWrite(this: Socket, ...args: unknown[]): boolean {
  const chunk = args[0];
  const text =
    typeof chunk === "string"
      ? chunk
      : chunk instanceof Uint8Array
        ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString("latin1")
        : "";
  // SSE frames only: a frame's copy on its way to an event store (Redis) is not a write to the client.
  if (text.includes("notifications/progress") && text.includes("data: ")) {
    const writtenAt = sharedClockMs();
    for (const match of text.matchAll(STAMP)) writes.push([Number(match[1]), writtenAt]);
  }
  return (write as (...a: unknown[]) => boolean).apply(this, args);
};

process.on("SIGUSR2", () => process.stderr.write(`${WRITES_PREFIX}${JSON.stringify(writes.splice(0))}\n`));
