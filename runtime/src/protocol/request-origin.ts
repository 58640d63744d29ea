/**
 * Who sent a request and how (§5, §15.3): what `http.authenticate` (or serveStdio's `auth`)
 * said about the caller, and the transport it arrived on. Handlers and interceptors read
 * both from their context; nothing in the runtime acts on them.
 */

/**
 * The caller's identity, as the deployer's `authenticate` returned it. Add your own members
 * by declaration merging (`declare module "@rcp-gen/runtime" { interface AuthInfo { tenant: string } }`).
 */
export interface AuthInfo {
  /** Who is calling: a user, a service account, a key id. */
  readonly subject?: string;
  /** What the caller may do, e.g. `index:write`. */
  readonly scopes?: readonly string[];
  readonly [key: string]: unknown;
}

/** How a request arrived. */
export type TransportInfo =
  | { readonly kind: "stdio" }
  /** An in-memory pair (`server.connect`, the generated `connectMemory`). */
  | { readonly kind: "memory" }
  | {
      readonly kind: "http";
      /** The request's headers, names lower-cased. */
      readonly headers: Readonly<Record<string, string | string[] | undefined>>;
    };

/** Who sent a request and how: the same for every request of a stdio or in-memory connection, per exchange over HTTP. */
export interface RequestOrigin {
  readonly auth: AuthInfo | undefined;
  readonly transport: TransportInfo;
}
