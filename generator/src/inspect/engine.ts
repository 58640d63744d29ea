/**
 * The inspector's one connection to the engine: the runtime's client over stdio (a child
 * process) or HTTP + SSE, speaking the protocol compiled from a schema folder. Its transport
 * is wrapped so every frame that goes out or comes in is also handed to `onFrame`, with the
 * verdict of validateFrame (@rcp-gen/runtime/testing) against that same protocol.
 */
import {
  BaseClient,
  httpClientTransport,
  type ClientTransport,
  type MethodMap,
  type ProtocolDescriptor,
} from "@rcp-gen/runtime";
import { stdioClientTransport } from "@rcp-gen/runtime/node";
import { validateFrame } from "@rcp-gen/runtime/testing";

export type EngineTarget = { readonly command: readonly string[]; readonly cwd?: string } | { readonly http: string };

export interface RecordedFrame {
  /** Counts from 1 in the order frames passed. */
  readonly seq: number;
  readonly direction: "sent" | "received";
  /** Milliseconds since the connection opened. */
  readonly at: number;
  /**
   * Milliseconds since the request of the call this frame belongs to was sent (0 for that
   * request): its response, its progress (by token) and its cancellation (by id). Absent for a
   * frame of no call.
   */
  readonly sinceCall?: number;
  readonly frame: unknown;
  readonly ok: boolean;
  /** One line per problem, as validateFrame words them. */
  readonly problems: readonly string[];
}

export interface Engine {
  readonly client: BaseClient<MethodMap>;
  /** Every frame so far, oldest first. */
  readonly frames: readonly RecordedFrame[];
  close(): Promise<void>;
}

export interface EngineOptions {
  readonly protocol: ProtocolDescriptor;
  readonly clientVersion: string;
  readonly onFrame: (frame: RecordedFrame) => void;
}

/** Opens the transport and runs initialize; the transport is released if that fails. */
export async function connectEngine(target: EngineTarget, options: EngineOptions): Promise<Engine> {
  const frames: RecordedFrame[] = [];
  const started = performance.now();
  // Request id -> method, so a response's result is checked against the method it answers.
  const pending = new Map<string | number, string>();
  const calls = new CallClock();
  const record = (direction: RecordedFrame["direction"], frame: unknown): void => {
    const check = validateFrame(frame, { protocol: options.protocol, pending });
    const message = frame as { id?: unknown; method?: unknown };
    if (direction === "sent" && typeof message.method === "string" && isId(message.id))
      pending.set(message.id, message.method);
    const now = performance.now();
    const sinceCall = calls.since(frame, now);
    const entry: RecordedFrame = {
      seq: frames.length + 1,
      direction,
      at: Math.round(now - started),
      ...(sinceCall === undefined ? {} : { sinceCall: Math.round(sinceCall) }),
      frame,
      ok: check.ok,
      problems: check.ok ? [] : check.errors.map((problem) => problem.message),
    };
    frames.push(entry);
    options.onFrame(entry);
  };
  const client = new BaseClient<MethodMap>({
    protocol: options.protocol,
    transport: recording(transportFor(target), record),
    clientInfo: { name: "rcp-gen-inspect", version: options.clientVersion },
    capabilities: { streaming: {}, log: {} },
  });
  try {
    await client.connect();
  } catch (error) {
    await client.close();
    throw error;
  }
  return { client, frames, close: () => client.close() };
}

function transportFor(target: EngineTarget): ClientTransport {
  if ("http" in target) return httpClientTransport({ url: target.http });
  const [command, ...args] = target.command;
  if (command === undefined) throw new Error("no engine command to run");
  return stdioClientTransport({
    command,
    args,
    ...(target.cwd === undefined ? {} : { cwd: target.cwd }),
    // The engine's diagnostics stay visible in the terminal that started the inspector.
    stderr: "inherit",
  });
}

/** The same transport, telling `record` of each frame it sends and receives. */
function recording(
  inner: ClientTransport,
  record: (direction: RecordedFrame["direction"], frame: unknown) => void,
): ClientTransport {
  return {
    cancellation: inner.cancellation,
    start: (sink) =>
      inner.start({
        receive: (frame, exchange) => {
          record("received", frame);
          sink.receive(frame, exchange);
        },
        closed: (error) => sink.closed(error),
      }),
    send: (frame, sendOptions) => {
      record("sent", frame);
      return inner.send(frame, sendOptions);
    },
    close: () => inner.close(),
  };
}

/** When each call's request was sent, found again from its id or its progress token. */
class CallClock {
  readonly #sentAt = new Map<string | number, number>();
  readonly #callOfToken = new Map<string | number, string | number>();

  /** Milliseconds from the request of `frame`'s call to `now`; a request starts its call. */
  since(frame: unknown, now: number): number | undefined {
    const message = (frame ?? {}) as { id?: unknown; method?: unknown; params?: Record<string, unknown> };
    const params = message.params ?? {};
    if (typeof message.method === "string" && isId(message.id)) {
      this.#sentAt.set(message.id, now);
      const token = (params._meta as { progressToken?: unknown } | undefined)?.progressToken;
      if (isId(token)) this.#callOfToken.set(token, message.id);
      return 0;
    }
    const call = isId(message.id)
      ? message.id
      : isId(params.progressToken)
        ? this.#callOfToken.get(params.progressToken)
        : isId(params.id)
          ? params.id
          : undefined;
    const sentAt = call === undefined ? undefined : this.#sentAt.get(call);
    return sentAt === undefined ? undefined : now - sentAt;
  }
}

function isId(value: unknown): value is string | number {
  return typeof value === "string" || typeof value === "number";
}
