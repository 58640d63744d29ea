/**
 * The raw HTTP side of a server under test (§5.2): one POST per exchange, the status,
 * headers and the whole body as text (an SSE stream is read until it ends), bounded by a
 * timeout so a stream that never ends is reported rather than waited for.
 */

export interface HttpReply {
  readonly status: number;
  readonly headers: Headers;
  readonly body: string;
  /** False when the body was still open at the timeout. */
  readonly ended: boolean;
}

export class HttpWire {
  readonly base: string;

  constructor(
    url: string,
    readonly timeoutMs: number,
  ) {
    this.base = url.replace(/\/+$/, "");
  }

  /** POSTs `body` to `<base>/<method>` (the base itself when `method` is ""), or to an absolute `url`. */
  async post(
    target: { method: string } | { url: string },
    body: string,
    headers: Record<string, string> = {},
  ): Promise<HttpReply> {
    const opened = await this.open(target, body, headers);
    const { text, ended } = await opened.rest();
    return { status: opened.status, headers: opened.headers, body: text, ended };
  }

  /** GETs the base with `headers` (the resume of a resumable stream, docs/resumable-streams.md). */
  async get(headers: Record<string, string>): Promise<HttpReply> {
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), this.timeoutMs);
    try {
      const response = await fetch(this.base, { method: "GET", headers, signal: abort.signal });
      const { text, ended } = await readAll(response);
      return { status: response.status, headers: response.headers, body: text, ended };
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * POSTs and returns once the response has begun (its status and headers): the body is read
   * with `rest`, or the connection closed with `close`, as a client that gives up would.
   */
  async open(
    target: { method: string } | { url: string },
    body: string,
    headers: Record<string, string> = {},
  ): Promise<OpenReply> {
    const url = "url" in target ? target.url : target.method === "" ? this.base : `${this.base}/${target.method}`;
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), this.timeoutMs);
    let response: Response;
    try {
      response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body,
        signal: abort.signal,
      });
    } catch (error) {
      clearTimeout(timer);
      throw error;
    }
    return {
      status: response.status,
      headers: response.headers,
      rest: () => readAll(response).finally(() => clearTimeout(timer)),
      close: () => {
        clearTimeout(timer);
        abort.abort();
      },
    };
  }
}

export interface OpenReply {
  readonly status: number;
  readonly headers: Headers;
  /** The rest of the body; `ended` false when the timeout cut it. */
  rest(): Promise<{ text: string; ended: boolean }>;
  /** Closes the connection without reading further. */
  close(): void;
}

async function readAll(response: Response): Promise<{ text: string; ended: boolean }> {
  if (response.body === null) return { text: "", ended: true };
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { text: text + decoder.decode(), ended: true };
      text += decoder.decode(value, { stream: true });
    }
  } catch (error) {
    if ((error as Error).name === "AbortError") return { text, ended: false };
    throw error;
  }
}
