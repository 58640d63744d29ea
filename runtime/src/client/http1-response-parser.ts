/**
 * An incremental HTTP/1.1 response parser (RFC 9112) for the raw Node exchange: bytes in as
 * they arrive, split anywhere; out come the head, body chunks and the end of the message.
 * Bodies are framed by chunked transfer coding, Content-Length, or the connection closing;
 * 1xx interim responses are skipped and 204/304 carry no body. Anything malformed throws.
 */

/** Largest response head (status line and headers), and largest trailer block. */
export const MAX_HEAD_BYTES = 64 * 1024;
/** Largest chunk-size line, extensions included. */
const MAX_CHUNK_LINE_BYTES = 4 * 1024;

export interface ResponseHead {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Map<string, string>;
  /** The connection may carry another request once this response has ended. */
  keepAlive: boolean;
}

export interface ResponseSink {
  head(head: ResponseHead): void;
  chunk(bytes: Buffer): void;
  /** The message ended; `rest` is whatever arrived after it (a well-behaved server sends nothing). */
  end(rest: Buffer | undefined): void;
}

export class MalformedResponseError extends Error {
  constructor(what: string) {
    super(`malformed HTTP response: ${what}`);
    this.name = "MalformedResponseError";
  }
}

const enum State {
  Head,
  Length,
  ChunkSize,
  ChunkData,
  ChunkDataEnd,
  Trailers,
  UntilClose,
  Done,
}

const CRLF = Buffer.from("\r\n");
const HEAD_END = Buffer.from("\r\n\r\n");
const STATUS_LINE = /^HTTP\/1\.([01]) (\d{3})(?: [^\r\n]*)?$/;
/** A field name, or any other token (RFC 9110 §5.6.2). */
export const HTTP_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const CHUNK_SIZE = /^([0-9A-Fa-f]{1,15})[ \t]*(?:;.*)?$/;
const DIGITS = /^\d{1,15}$/;

export class ResponseParser {
  #state = State.Head;
  /** Bytes of an unfinished head, chunk-size line or trailer block. */
  #pending: Buffer | undefined;
  /** Body bytes still to come: of the Content-Length, or of the current chunk. */
  #remaining = 0;
  #trailerBytes = 0;
  readonly #sink: ResponseSink;

  constructor(sink: ResponseSink) {
    this.#sink = sink;
  }

  /** True once the response has ended. */
  get done(): boolean {
    return this.#state === State.Done;
  }

  /** True when the body runs until the connection closes. */
  get endsWithClose(): boolean {
    return this.#state === State.UntilClose;
  }

  /** The connection closed: ends a body that runs until close; anything else was cut short. */
  close(): void {
    if (this.#state === State.UntilClose) {
      this.#state = State.Done;
      this.#sink.end(undefined);
    } else if (this.#state !== State.Done) {
      throw new MalformedResponseError("the connection closed before the response ended");
    }
  }

  feed(bytes: Buffer): void {
    let data: Buffer | undefined = bytes;
    while (data !== undefined && data.byteLength > 0) {
      switch (this.#state) {
        case State.Head:
          data = this.#head(data);
          break;
        case State.Length:
          data = this.#lengthBody(data);
          break;
        case State.ChunkSize:
          data = this.#chunkSize(data);
          break;
        case State.ChunkData:
          data = this.#chunkData(data);
          break;
        case State.ChunkDataEnd:
          data = this.#chunkDataEnd(data);
          break;
        case State.Trailers:
          data = this.#trailers(data);
          break;
        case State.UntilClose:
          this.#sink.chunk(data);
          data = undefined;
          break;
        case State.Done:
          throw new MalformedResponseError("bytes after the response ended");
      }
    }
  }

  /** Collects bytes up to `delimiter`; the line and what follows it, or undefined while incomplete. */
  #until(data: Buffer, delimiter: Buffer, limit: number, what: string): [Buffer, Buffer] | undefined {
    const previous = this.#pending?.byteLength ?? 0;
    const joined = this.#pending === undefined ? data : Buffer.concat([this.#pending, data]);
    const at = joined.indexOf(delimiter, Math.max(0, previous - delimiter.byteLength + 1));
    if (at === -1 || at > limit) {
      if (joined.byteLength > limit) throw new MalformedResponseError(`${what} exceeds ${limit} bytes`);
      this.#pending = joined;
      return undefined;
    }
    this.#pending = undefined;
    return [joined.subarray(0, at), joined.subarray(at + delimiter.byteLength)];
  }

  #head(data: Buffer): Buffer | undefined {
    const split = this.#until(data, HEAD_END, MAX_HEAD_BYTES, "the response head");
    if (split === undefined) return undefined;
    const [block, rest] = split;
    const lines = block.toString("latin1").split("\r\n");
    const status = STATUS_LINE.exec(lines[0]!);
    if (status === null) throw new MalformedResponseError(`bad status line ${JSON.stringify(lines[0]!.slice(0, 80))}`);
    const code = Number(status[2]);
    const headers = parseFields(lines, 1);
    // 1xx are interim (100 Continue, 103 Early Hints): the real response follows. 101 would
    // switch protocols, which a POST that never asked for it cannot accept.
    if (code === 101) throw new MalformedResponseError("101 Switching Protocols without an upgrade request");
    if (code < 200) return rest;
    const connection = headers.get("connection")?.toLowerCase();
    // Both framings at once may be a smuggling attempt: read by chunks, then never trust the connection again.
    const ambiguous = headers.has("transfer-encoding") && headers.has("content-length");
    const keepAlive =
      !ambiguous && (status[1] === "1" ? !hasToken(connection, "close") : hasToken(connection, "keep-alive"));
    // Framing first: a head whose body cannot be delimited is refused before anyone sees it.
    this.#state = this.#framing(code, headers);
    this.#sink.head({ status: code, headers, keepAlive });
    if (this.#state === State.Done || (this.#state === State.Length && this.#remaining === 0)) {
      this.#state = State.Done;
      this.#sink.end(rest.byteLength > 0 ? rest : undefined);
      return undefined;
    }
    return rest;
  }

  #framing(status: number, headers: Map<string, string>): State {
    if (hasNoBody(status)) return State.Done;
    const coding = headers.get("transfer-encoding");
    if (coding !== undefined) {
      // Chunked must be the last coding (RFC 9112 §6.3); other codings are not undone here.
      if (/(?:^|,)\s*chunked\s*$/i.test(coding)) return State.ChunkSize;
      return State.UntilClose;
    }
    const length = headers.get("content-length");
    if (length === undefined) return State.UntilClose;
    if (DIGITS.test(length)) {
      this.#remaining = Number(length);
      return State.Length;
    }
    // Repeated identical values arrive joined ("5, 5"); differing ones are an attack or a bug.
    const values = new Set(length.split(",").map((value) => value.trim()));
    const [only] = values;
    if (values.size !== 1 || !DIGITS.test(only!)) throw new MalformedResponseError(`bad Content-Length ${length}`);
    this.#remaining = Number(only);
    return State.Length;
  }

  #lengthBody(data: Buffer): Buffer | undefined {
    if (data.byteLength < this.#remaining) {
      this.#remaining -= data.byteLength;
      this.#sink.chunk(data);
      return undefined;
    }
    const body = data.subarray(0, this.#remaining);
    const rest = data.subarray(this.#remaining);
    this.#remaining = 0;
    this.#state = State.Done;
    if (body.byteLength > 0) this.#sink.chunk(body);
    this.#sink.end(rest.byteLength > 0 ? rest : undefined);
    return undefined;
  }

  #chunkSize(data: Buffer): Buffer | undefined {
    const split = this.#until(data, CRLF, MAX_CHUNK_LINE_BYTES, "a chunk-size line");
    if (split === undefined) return undefined;
    const [line, rest] = split;
    const size = CHUNK_SIZE.exec(line.toString("latin1"));
    if (size === null)
      throw new MalformedResponseError(`bad chunk size ${JSON.stringify(line.toString("latin1", 0, 80))}`);
    this.#remaining = parseInt(size[1]!, 16);
    this.#state = this.#remaining === 0 ? State.Trailers : State.ChunkData;
    return rest;
  }

  #chunkData(data: Buffer): Buffer | undefined {
    if (data.byteLength <= this.#remaining) {
      this.#remaining -= data.byteLength;
      this.#sink.chunk(data);
      if (this.#remaining === 0) this.#state = State.ChunkDataEnd;
      return undefined;
    }
    this.#sink.chunk(data.subarray(0, this.#remaining));
    const rest = data.subarray(this.#remaining);
    this.#remaining = 0;
    this.#state = State.ChunkDataEnd;
    return rest;
  }

  /** The CRLF after a chunk's data, possibly split between reads. */
  #chunkDataEnd(data: Buffer): Buffer | undefined {
    const split = this.#until(data, CRLF, CRLF.byteLength, "the line ending a chunk's data");
    if (split === undefined) return undefined;
    if (split[0].byteLength > 0) throw new MalformedResponseError("chunk data longer than its size");
    this.#state = State.ChunkSize;
    return split[1];
  }

  /** Trailer fields after the last chunk, one line at a time up to an empty one; checked, then dropped. */
  #trailers(data: Buffer): Buffer | undefined {
    const split = this.#until(data, CRLF, MAX_HEAD_BYTES - this.#trailerBytes, "the trailers");
    if (split === undefined) return undefined;
    const [line, rest] = split;
    if (line.byteLength === 0) return this.#finish(rest);
    parseFields([line.toString("latin1")], 0);
    this.#trailerBytes += line.byteLength + CRLF.byteLength;
    return rest;
  }

  #finish(rest: Buffer): undefined {
    this.#state = State.Done;
    this.#sink.end(rest.byteLength > 0 ? rest : undefined);
    return undefined;
  }
}

/** A final status whose response never has a body, whatever its headers say. */
export function hasNoBody(status: number): boolean {
  return status === 204 || status === 304;
}

/** Header or trailer fields from `lines[from]` on, by lower-case name. */
function parseFields(lines: string[], from: number): Map<string, string> {
  const fields = new Map<string, string>();
  for (let index = from; index < lines.length; index += 1) {
    const line = lines[index]!;
    const colon = line.indexOf(":");
    const name = colon > 0 ? line.slice(0, colon) : "";
    // Obsolete line folding and names with spaces are rejected, as RFC 9112 §5 allows.
    if (!HTTP_TOKEN.test(name))
      throw new MalformedResponseError(`bad header line ${JSON.stringify(line.slice(0, 80))}`);
    const key = name.toLowerCase();
    const value = line.slice(colon + 1).trim();
    const earlier = fields.get(key);
    fields.set(key, earlier === undefined ? value : `${earlier}, ${value}`);
  }
  return fields;
}

function hasToken(list: string | undefined, token: string): boolean {
  return list !== undefined && list.split(",").some((item) => item.trim() === token);
}
