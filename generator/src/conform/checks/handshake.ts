/**
 * The handshake on a fresh session (§7.1, §7.2, §7.15, §13, §14.1, §5.2): what may be called
 * before initialize, version negotiation, and the rule that a failed initialize unlocks
 * nothing. Over stateless HTTP every request stands alone (§5.2), so the stdio session rules
 * become: work without initialize, and initialize idempotently.
 */
import { fail, shown, skip, verdict, type CheckEntry, type Verdict } from "../check.js";
import { errorCode, outcome, resultOf, type ConformContext } from "../context.js";
import type { HttpSession } from "../http-session.js";
import type { Exchange } from "../session.js";

const initializeParams = (protocolVersion: number) => ({
  protocolVersion,
  client: { name: "rcp-gen-conform", version: "1" },
  capabilities: {},
});

/** A gated method the server advertises, with valid params: what "work" means before initialize. */
function gatedProbe(ctx: ConformContext) {
  return ctx.probe();
}

function expectCode(exchange: Exchange, code: number, what: string): Verdict {
  return verdict(errorCode(exchange) === code, `${what}: expected error ${code}, got ${outcome(exchange)}`);
}

/** A gated call on an uninitialized session is -32001 (§13); stateless HTTP has no such session. */
async function stillLocked(ctx: ConformContext, when: string, statelessReason: string): Promise<Verdict> {
  if (isStateless(ctx)) return skip(statelessReason);
  const probe = gatedProbe(ctx);
  if (probe === undefined) return skip("no advertised method to call");
  return expectCode(await ctx.call(probe.method, probe.params), -32001, `${probe.method} ${when}`);
}

function isStateless(ctx: ConformContext): boolean {
  return ctx.transport === "http" && (ctx.session as HttpSession).token === undefined;
}

export const handshakeChecks: CheckEntry[] = [
  {
    id: "lifecycle.info-before-initialize",
    section: "§7.2, §14.1",
    level: "L0",
    phase: "handshake",
    title: "info answers before initialize with the server's identity and capabilities",
    async run(ctx) {
      const exchange = await ctx.call("info");
      const result = resultOf(exchange);
      if (result === undefined) return fail(`info before initialize: ${outcome(exchange)}`);
      const problems = ctx.problems(exchange.response, { method: "info" });
      if (typeof result.capabilities === "object" && result.capabilities !== null)
        ctx.capabilities = result.capabilities as Record<string, unknown>;
      ctx.declaredLevel = (result._meta as { conformance?: unknown } | undefined)?.conformance;
      ctx.serverInfo = result.server;
      return verdict(problems.length === 0, problems.join("; "));
    },
  },
  {
    id: "lifecycle.ping-echoes-nonce",
    section: "§7.15, §14.1",
    level: "L0",
    phase: "handshake",
    title: "ping answers before initialize and echoes its nonce, a number or a string",
    async run(ctx) {
      const numeric = await ctx.call("ping", { nonce: 777 });
      const text = await ctx.call("ping", { nonce: "n-conform" });
      const echoed = [resultOf(numeric)?.nonce, resultOf(text)?.nonce];
      return verdict(
        echoed[0] === 777 && echoed[1] === "n-conform",
        `nonces 777 and "n-conform" came back as ${shown(numeric.response)} and ${shown(text.response)}`,
      );
    },
  },
  {
    id: "lifecycle.ping-without-nonce",
    section: "§7.15",
    level: "L0",
    phase: "handshake",
    title: "ping without a nonce answers a result object",
    async run(ctx) {
      const exchange = await ctx.call("ping");
      return verdict(resultOf(exchange) !== undefined, `ping: ${outcome(exchange)}`);
    },
  },
  {
    id: "session.gated-before-initialize",
    section: "§13, §14.1",
    level: "L0",
    phase: "handshake",
    title: "a gated method before initialize is rejected with -32001",
    run: (ctx) => stillLocked(ctx, "before initialize", "stateless HTTP treats every request as initialized (§5.2)"),
  },
  {
    id: "session.http-needs-no-initialize",
    section: "§5.2",
    level: "L0",
    on: "http",
    phase: "handshake",
    title: "stateless HTTP serves a gated method without initialize (each request is implicitly initialized)",
    async run(ctx) {
      const probe = gatedProbe(ctx);
      if (probe === undefined) return skip("no advertised method to call");
      const exchange = await ctx.call(probe.method, probe.params);
      return verdict(
        exchange.response !== undefined && errorCode(exchange) !== -32001,
        `${probe.method} before any initialize: ${outcome(exchange)}; HTTP is request-scoped, so initialize state cannot be required across requests`,
      );
    },
  },
  {
    id: "session.version-mismatch",
    section: "§7.1, §13",
    level: "L0",
    phase: "handshake",
    title: "initialize with no common version (protocolVersion 0) is rejected with -32002",
    async run(ctx) {
      return expectCode(await ctx.call("initialize", initializeParams(0)), -32002, "initialize with protocolVersion 0");
    },
  },
  {
    id: "session.failed-initialize-unlocks-nothing",
    section: "§13",
    level: "L0",
    phase: "handshake",
    title: "after a failed initialize, gated methods are still rejected with -32001",
    run: (ctx) =>
      stillLocked(ctx, "after a failed initialize", "stateless HTTP has no session to stay uninitialized (§5.2)"),
  },
  {
    id: "session.negotiates-version",
    section: "§7.1, §14.1",
    level: "L0",
    phase: "handshake",
    title: "initialize from a newer client (protocolVersion 99) negotiates min(client, server), at least 1",
    async run(ctx) {
      const exchange = await ctx.call("initialize", initializeParams(99));
      const result = resultOf(exchange);
      if (result === undefined) return fail(`initialize: ${outcome(exchange)}`);
      const version = result.protocolVersion;
      const problems = ctx.problems(exchange.response, { method: "initialize" });
      if (typeof version !== "number" || !Number.isInteger(version) || version < 1 || version > 99)
        problems.unshift(`negotiated protocolVersion ${shown(version)} is not an integer in 1..99`);
      if (typeof result.capabilities === "object" && result.capabilities !== null)
        ctx.capabilities = result.capabilities as Record<string, unknown>;
      return verdict(problems.length === 0, problems.join("; "));
    },
  },
  {
    id: "session.declares-level",
    section: "§14",
    level: "L0",
    phase: "handshake",
    title: 'the server states its level in _meta.conformance ("L0", "L1" or "L2")',
    run(ctx) {
      const level = ctx.declaredLevel;
      return verdict(level === "L0" || level === "L1" || level === "L2", `_meta.conformance is ${shown(level)}`);
    },
  },
  {
    id: "session.retrieval-capability",
    section: "§14.1",
    level: "L0",
    phase: "handshake",
    title: "at least one retrieval capability is advertised (embed, rerank, retrieve or graph)",
    run(ctx) {
      const found = ["embed", "rerank", "retrieve", "graph"].filter((key) => ctx.capabilities[key] !== undefined);
      return verdict(found.length > 0, `capabilities: ${Object.keys(ctx.capabilities).join(", ") || "none"}`);
    },
  },
  {
    id: "session.second-initialize-rejected",
    section: "§13",
    level: "L0",
    phase: "handshake",
    title: "a second initialize after a successful one is rejected with -32600",
    async run(ctx) {
      if (isStateless(ctx)) return skip("stateless HTTP answers initialize idempotently (§5.2)");
      return expectCode(await ctx.call("initialize", initializeParams(1)), -32600, "a second initialize");
    },
  },
  {
    id: "session.http-initialize-idempotent",
    section: "§5.2",
    level: "L0",
    on: "http",
    phase: "handshake",
    title: "stateless HTTP answers a repeated initialize (a second client's) with a result",
    async run(ctx) {
      if (!isStateless(ctx)) return skip("the server issues sessions (initialize.result._meta.session)");
      const exchange = await ctx.call("initialize", initializeParams(1));
      return verdict(
        resultOf(exchange) !== undefined,
        `a second initialize: ${outcome(exchange)}; HTTP is request-scoped, so initialize state must not persist across requests`,
      );
    },
  },
  {
    id: "session.info-matches-initialize",
    section: "§13.2",
    level: "L0",
    phase: "handshake",
    title: "info after initialize reports the capabilities initialize returned",
    async run(ctx) {
      const exchange = await ctx.call("info");
      const capabilities = resultOf(exchange)?.capabilities;
      return verdict(
        JSON.stringify(canonical(capabilities)) === JSON.stringify(canonical(ctx.capabilities)),
        `info reports ${shown(capabilities)}, initialize returned ${shown(ctx.capabilities)}`,
      );
    },
  },
];

/** Key order does not matter in JSON objects. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
  );
}
