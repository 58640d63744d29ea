/**
 * The contenders of the comparative scenarios: ours (the generated server on the runtime), the
 * hand-written floors, and the peer libraries, each with how to start it and how to address it.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Contender } from "./alternate.js";
import { RESULT_VARIANT_ENV, RETRIEVE_PARAMS, type ResultVariant } from "./fixture.js";
import type { DialectName } from "./load/dialects.js";
import type { HttpTarget } from "./load/http-load.js";
import type { ServerCommand } from "./load/stdio-connection.js";

export const OURS = "ours";
export const FLOOR = "floor";
export const MCP = "mcp-sdk";
export const REFERENCE = "RCP reference Node SDK";
/** Ours with one no-op server interceptor, beside ours in scenarios 1 and 2. */
export const OURS_INTERCEPTED = "ours+1 no-op interceptor";

export function serverScript(name: string): string {
  return fileURLToPath(new URL(`./servers/${name}.js`, import.meta.url));
}

export interface StdioPeer extends Contender {
  server: ServerCommand;
  dialect: DialectName;
}

export interface HttpPeer extends Contender {
  script: string;
  env?: Record<string, string>;
  /** The request to send, given the URL the server announced when it started listening. */
  target(announcedUrl: string, options?: { progressToken?: string }): HttpTarget;
}

/** RCP servers announce their base URL (`.../rcp`); a method is `POST <base>/<method>` (§5.2). */
function rcpTarget(baseUrl: string, options?: { progressToken?: string }): HttpTarget {
  const params = options?.progressToken
    ? { ...RETRIEVE_PARAMS, _meta: { progressToken: options.progressToken } }
    : RETRIEVE_PARAMS;
  return {
    url: `${baseUrl}/retrieve`,
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "retrieve", params }),
    headers: {},
  };
}

const oursPresent = existsSync(serverScript("ours-stdio"));

export const STDIO_PEERS: readonly StdioPeer[] = [
  ...(oursPresent ? [{ label: OURS, server: { script: serverScript("ours-stdio") }, dialect: "rcp" as const }] : []),
  { label: FLOOR, server: { script: serverScript("floor-stdio") }, dialect: "rcp" },
  { label: MCP, server: { script: serverScript("mcp-stdio") }, dialect: "mcp" },
  { label: "vscode-jsonrpc", server: { script: serverScript("vscode-stdio") }, dialect: "lsp", reportedOnly: true },
];

export const HTTP_PEERS: readonly HttpPeer[] = [
  ...(oursPresent ? [{ label: OURS, script: serverScript("ours-http"), target: rcpTarget }] : []),
  { label: FLOOR, script: serverScript("floor-http"), target: rcpTarget },
  {
    label: MCP,
    script: serverScript("mcp-http"),
    target: (origin, options) => ({
      url: `${origin}/mcp`,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: {
          name: "retrieve",
          arguments: RETRIEVE_PARAMS,
          ...(options?.progressToken ? { _meta: { progressToken: options.progressToken } } : {}),
        },
      }),
      headers: { accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" },
    }),
  },
  {
    label: "jayson",
    reportedOnly: true,
    script: serverScript("jayson-http"),
    target: (origin) => ({
      url: `${origin}/`,
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "retrieve", params: RETRIEVE_PARAMS }),
      headers: {},
    }),
  },
];

/** The reference SDK copy beside the repository (../shared; this file runs from dist/test/bench). */
const REFERENCE_SDK = resolve(
  fileURLToPath(new URL("../../..", import.meta.url)),
  "../shared/reference/rcp-ref/sdk/node/src/index.js",
);
const referencePresent = existsSync(REFERENCE_SDK);

/** The RCP reference Node SDK's own stdio server, when its copy is present. */
export const REFERENCE_STDIO_PEERS: readonly StdioPeer[] = referencePresent
  ? [
      {
        label: REFERENCE,
        server: { script: serverScript("reference-stdio"), env: { BENCH_REFERENCE_SDK: REFERENCE_SDK } },
        dialect: "rcp",
      },
    ]
  : [];

export function missingReferenceNote(): string[] {
  return referencePresent ? [] : [`${REFERENCE} skipped: no copy at ${REFERENCE_SDK} (../shared is not in this clone)`];
}

/** The same stdio peer answering the `variant` retrieve result, labelled `<label>, <variant> result`. */
export function withResultVariant(peer: StdioPeer, variant: ResultVariant): StdioPeer {
  return {
    ...peer,
    label: variantLabel(peer.label, variant),
    server: { ...peer.server, env: { ...peer.server.env, [RESULT_VARIANT_ENV]: variant } },
  };
}

export function variantLabel(label: string, variant: ResultVariant): string {
  return `${label}, ${variant} result`;
}

const ONE_INTERCEPTOR = { BENCH_INTERCEPTORS: "1" };

/** Ours with one no-op interceptor: the cost of the interceptor path, measured beside ours in scenario 1. */
export const INTERCEPTED_STDIO_PEERS: readonly StdioPeer[] = oursPresent
  ? [{ label: OURS_INTERCEPTED, server: { script: serverScript("ours-stdio"), env: ONE_INTERCEPTOR }, dialect: "rcp" }]
  : [];

/**
 * `peers` with `intercepted` right after ours: the ratio of the two compares runs made back to
 * back in every round, not ones a whole round of other contenders apart on a shared machine.
 */
export function besideOurs<P extends { label: string }>(peers: readonly P[], intercepted: readonly P[]): P[] {
  return peers.flatMap((peer) => (peer.label === OURS ? [peer, ...intercepted] : [peer]));
}

/** The same in scenario 2. */
export const INTERCEPTED_HTTP_PEERS: readonly HttpPeer[] = oursPresent
  ? [{ label: OURS_INTERCEPTED, script: serverScript("ours-http"), env: ONE_INTERCEPTOR, target: rcpTarget }]
  : [];

export const OURS_RESUMABLE = "ours, resumable";

/** Ours offering resumable streams, the client opting in: what numbering frames into the event store costs (scenario 3). */
export const RESUMABLE_HTTP_PEERS: readonly HttpPeer[] = oursPresent ? [resumablePeer(OURS_RESUMABLE, {})] : [];

export const OURS_RESUMABLE_REDIS = "ours, resumable on Redis";

/** Ours with resumable streams whose frames also go to the redis-server at `socket` (scenario 17). */
export function resumableRedisPeer(socket: string): HttpPeer {
  return resumablePeer(OURS_RESUMABLE_REDIS, { BENCH_REDIS_SOCKET: socket });
}

function resumablePeer(label: string, env: Record<string, string>): HttpPeer {
  return {
    label,
    script: serverScript("ours-http"),
    env: { BENCH_RESUMABLE: "1", ...env },
    target: (url, options) => {
      const target = rcpTarget(url, options);
      return { ...target, headers: { ...target.headers, "x-rcp-resumable": "1" } };
    },
  };
}

export function missingOursNote(): string[] {
  return oursPresent ? [] : ["ours is not built yet (dist/test/bench/servers/ours-*.js missing): peers only"];
}
