/**
 * Reads a body of bytes no further than a limit (§15.5): past it, reading is cancelled and
 * nothing more is buffered. Shared by the server's fetch adapter (request bodies) and the
 * client's HTTP transport (response bodies); Web APIs only.
 */

/** What reading needs of a body: a Web stream's reader, or a host's own (node:http). */
export type ChunkReader = Pick<ReadableStreamDefaultReader<Uint8Array>, "read" | "cancel">;

/** The whole body, or null once it passes `limit` bytes (the reader then cancelled, unless `keepReader`). */
export async function readBounded(reader: ChunkReader, limit: number, keepReader = false): Promise<Uint8Array | null> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      if (!keepReader) await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
