/**
 * The inspector's one connection to the engine: the runtime's client over stdio (a child
 * process) or HTTP + SSE, speaking the protocol compiled from a schema folder. Its transport
 * is wrapped so every frame that goes out or comes in is also handed to `onFrame`, with the
 * verdict of validateFrame (@rcp-gen/runtime/testing) against that same protocol. Over HTTP, a
 * call whose stream is cut is resumed when the engine offers it (docs/resumable-streams.md):
 * each reconnect is an entry of its own, and the frames it delivers are marked `resumed`.
 */
import {
  BaseClient,
  httpClientTransport,
  type ClientTransport,
  type MethodMap,
  type ProtocolDescriptor,
  type ResumeOptions,
} from "@rcp-gen/runtime";
import { stdioClientTransport } from "@rcp-gen/runtime/node";
import { validateFrame } from "@rcp-gen/runtime/testing";

export type EngineTarget = { readonly command: readonly string[]; readonly cwd?: string } | { readonly http: string };

export interface RecordedFrame {
  /** Counts from 1 in the order frames passed. */
  readonly seq: number;
  /** `reconnect`: not a frame but the client reconnecting to a call's cut stream; `frame` is then a `Reconnect`. */
  readonly direction: "sent" | "received" | "reconnect";
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
  /** Delivered by a reconnect after its call's stream was cut. */
  readonly resumed?: true;
}

/** What a `reconnect` entry records: the call, the attempt (from 1), and the last event of its stream it had. */
export interface Reconnect {
  readonly method: string;
  readonly id: string | number;
  readonly attempt: number;
  readonly afterEvent: number;
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
  // Calls whose stream was cut, until their response: what arrives for them came by a reconnect.
  const resuming = new Set<string | number>();
  const add = (entry: Omit<RecordedFrame, "seq">): void => {
    const recorded: RecordedFrame = { seq: frames.length + 1, ...entry };
    frames.push(recorded);
    options.onFrame(recorded);
  };
  const record = (direction: "sent" | "received", frame: unknown): void => {
    const check = validateFrame(frame, { protocol: options.protocol, pending });
    const message = frame as { id?: unknown; method?: unknown };
    if (direction === "sent" && typeof message.method === "string" && isId(message.id))
      pending.set(message.id, message.method);
    const now = performance.now();
    const call = calls.callOf(frame, now);
    const sinceCall = calls.since(call, now);
    const resumed = direction === "received" && call !== undefined && resuming.has(call);
    if (resumed && message.method === undefined) resuming.delete(call);
    add({
      direction,
      at: Math.round(now - started),
      ...(sinceCall === undefined ? {} : { sinceCall: Math.round(sinceCall) }),
      frame,
      ok: check.ok,
      problems: check.ok ? [] : check.errors.map((problem) => problem.message),
      ...(resumed ? { resumed: true } : {}),
    });
  };
  const reconnecting = ({ method, id, attempt, lastEventId }: ReconnectInfo): void => {
    resuming.add(id);
    const now = performance.now();
    const sinceCall = calls.since(id, now);
    const reconnect: Reconnect = { method, id, attempt, afterEvent: Number(lastEventId.split(":").at(-1)) };
    add({
      direction: "reconnect",
      at: Math.round(now - started),
      ...(sinceCall === undefined ? {} : { sinceCall: Math.round(sinceCall) }),
      frame: reconnect,
      ok: true,
      problems: [],
    });
  };
  const client = new BaseClient<MethodMap>({
    protocol: options.protocol,
    transport: recording(transportFor(target, reconnecting), record),
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

type ReconnectInfo = Parameters<NonNullable<ResumeOptions["onReconnect"]>>[0];

function transportFor(target: EngineTarget, onReconnect: (info: ReconnectInfo) => void): ClientTransport {
  if ("http" in target) return httpClientTransport({ url: target.http, resume: { onReconnect } });
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
  record: (direction: "sent" | "received", frame: unknown) => void,
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

  /** The call `frame` belongs to, by id, progress token or cancelled id; a request starts its call at `now`. */
  callOf(frame: unknown, now: number): string | number | undefined {
    const message = (frame ?? {}) as { id?: unknown; method?: unknown; params?: Record<string, unknown> };
    const params = message.params ?? {};
    if (typeof message.method === "string" && isId(message.id)) {
      this.#sentAt.set(message.id, now);
      const token = (params._meta as { progressToken?: unknown } | undefined)?.progressToken;
      if (isId(token)) this.#callOfToken.set(token, message.id);
      return message.id;
    }
    return isId(message.id)
      ? message.id
      : isId(params.progressToken)
        ? this.#callOfToken.get(params.progressToken)
        : isId(params.id)
          ? params.id
          : undefined;
  }

  /** Milliseconds from the request of `call` to `now`. */
  since(call: string | number | undefined, now: number): number | undefined {
    const sentAt = call === undefined ? undefined : this.#sentAt.get(call);
    return sentAt === undefined ? undefined : now - sentAt;
  }
}

function isId(value: unknown): value is string | number {
  return typeof value === "string" || typeof value === "number";
}
