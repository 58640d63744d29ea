/**
 * Lingering close, as nginx and Apache do it: an answer sent before the whole request was read
 * (413, 408, a 400 for broken framing) must still reach the client. Closing the socket while the
 * client is still sending makes the kernel reset the connection, and a client that reads only
 * once it has sent everything (Python's urllib, HTTP/1.0 clients, most proxies, all with
 * `Connection: close`) never reads the answer. So the rest of the request is read and thrown
 * away until the client stops sending, within bounds of time and bytes, so that a client cannot
 * hold the connection by trickling. node:http is lingered on its socket (./node-linger.ts); a
 * Web-standard host, which closes the connection once the response is complete, gets its
 * response once the rest is read (here, with Web APIs only).
 */
import type { ChunkReader } from "../framing/bounded-body.js";

/** No byte for this long: the client has stopped sending. */
export const LINGER_IDLE_MS = 1000;
/** The longest the rest of a refused request is read, however fast it keeps coming. */
export const LINGER_MAX_MS = 5000;
/** The most bytes of it read and thrown away. */
export const LINGER_MAX_BYTES = 64 * 1024 * 1024;

/**
 * Reads and discards the rest of a Web request body, within the same bounds, then cancels the
 * reader (a no-op once it is done). Resolves when the client has stopped sending.
 */
export async function discardRest(reader: ChunkReader): Promise<void> {
  const started = Date.now();
  let bytes = 0;
  let idle: ReturnType<typeof setTimeout> | undefined;
  const quiet = (): Promise<"quiet"> =>
    new Promise((resolve) => (idle = setTimeout(() => resolve("quiet"), LINGER_IDLE_MS)));
  try {
    while (bytes <= LINGER_MAX_BYTES && Date.now() - started < LINGER_MAX_MS) {
      const read = await Promise.race([reader.read(), quiet()]);
      clearTimeout(idle);
      if (read === "quiet" || read.done) break;
      bytes += read.value.byteLength;
    }
  } catch {
    // The client went away: nothing more to read.
  } finally {
    clearTimeout(idle);
    await reader.cancel().catch(() => {});
  }
}
