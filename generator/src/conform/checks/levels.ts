/**
 * What the levels add (§14.2, §14.3). L1: retrieve over dense, sparse and hybrid, with filters
 * and citations, scores that rank, and k and minScore honoured. L2: a selection of the SOTA
 * surface, each advertised part working: pagination, logs, determinism, snapshots, streaming.
 */
import { fail, pass, shown, skip, verdict, type CheckEntry, type Verdict } from "../check.js";
import { errorCode, outcome, resultOf, type ConformContext } from "../context.js";
import { noHits } from "../probe-query.js";

type Json = Record<string, unknown>;
type Hit = { id?: unknown; score?: unknown; citation?: unknown; meta?: unknown };

const L1_MODES = ["dense", "sparse", "hybrid"];

const progressMethod = (ctx: ConformContext): string =>
  Object.values(ctx.protocol.notifications).find((notification) => notification.role === "progress")?.method ??
  `${ctx.protocol.notificationPrefix}progress`;
const L2_FEATURES: Array<[string, (capabilities: Json) => boolean]> = [
  ["rerank", (c) => c["rerank"] !== undefined || (c["retrieve"] as Json | undefined)?.["rerankBuiltin"] === true],
  ["multiVector", (c) => c["multiVector"] !== undefined],
  ["sparseEmbed", (c) => c["sparseEmbed"] !== undefined],
  ["transform", (c) => c["transform"] !== undefined],
  ["graph", (c) => c["graph"] !== undefined],
  ["streaming", (c) => c["streaming"] !== undefined],
  ["pagination", (c) => c["pagination"] !== undefined],
  ["log", (c) => c["log"] !== undefined],
  [
    "reproducibility",
    (c) => ["deterministic", "snapshots"].some((key) => (c["retrieve"] as Json | undefined)?.[key] === true),
  ],
];

async function hitsOf(ctx: ConformContext, params: Json): Promise<{ hits?: Hit[]; result?: Json; detail: string }> {
  const exchange = await ctx.call("retrieve", { query: ctx.levelQuery, k: 5, ...params });
  const result = resultOf(exchange);
  const hits = result?.hits;
  return Array.isArray(hits)
    ? { hits: hits as Hit[], result, detail: "" }
    : { detail: `retrieve ${shown(params)}: ${outcome(exchange)}` };
}

function needsRetrieve(ctx: ConformContext): Verdict | undefined {
  return ctx.advertises("retrieve") ? undefined : fail("retrieve is not advertised");
}

export const levelChecks: CheckEntry[] = [
  {
    id: "l1.advertises",
    section: "§14.2",
    level: "L1",
    phase: "main",
    title: "retrieve with modes dense, sparse and hybrid, filter and citations are advertised",
    run(ctx) {
      const modes = (ctx.capabilities["retrieve"] as Json | undefined)?.["modes"];
      const missing = [
        ...L1_MODES.filter((mode) => !Array.isArray(modes) || !modes.includes(mode)).map(
          (mode) => `retrieve.modes ${mode}`,
        ),
        ...["retrieve", "filter", "citations"].filter((key) => ctx.capabilities[key] === undefined),
      ];
      return verdict(missing.length === 0, `missing: ${missing.join(", ")}`);
    },
  },
  {
    id: "l1.modes-rank",
    section: "§14.2",
    level: "L1",
    phase: "main",
    title: "each of dense, sparse and hybrid returns hits with unique ids, ranked by non-increasing score",
    async run(ctx) {
      const missing = needsRetrieve(ctx);
      if (missing) return missing;
      const problems: string[] = [];
      const empty: string[] = [];
      for (const mode of L1_MODES) {
        const { hits, detail } = await hitsOf(ctx, { mode });
        if (hits === undefined) problems.push(detail);
        else if (hits.length === 0) empty.push(mode);
        else {
          const scores = hits.map((hit) => hit.score);
          if (
            !scores.every(
              (score, index) => typeof score === "number" && (index === 0 || score <= (scores[index - 1] as number)),
            )
          )
            problems.push(`${mode}: scores ${shown(scores)} are not non-increasing`);
          if (new Set(hits.map((hit) => JSON.stringify(hit.id))).size !== hits.length)
            problems.push(`${mode}: repeated hit ids`);
        }
      }
      // No hits shows nothing wrong: a similarity threshold may keep every note from a query off its subject.
      if (problems.length === 0 && empty.length > 0)
        return noHits(ctx.levelQuery, empty.length === L1_MODES.length ? undefined : `in ${empty.join(", ")} mode`);
      return verdict(problems.length === 0, problems.join("; "));
    },
  },
  {
    id: "l1.k-and-min-score",
    section: "§14.2, §7.7",
    level: "L1",
    phase: "main",
    title: "k and minScore are honoured",
    async run(ctx) {
      const missing = needsRetrieve(ctx);
      if (missing) return missing;
      const wide = await hitsOf(ctx, { k: 5 });
      const one = await hitsOf(ctx, { k: 1 });
      if (wide.hits === undefined || one.hits === undefined) return fail(wide.detail || one.detail);
      if (one.hits.length > 1) return fail(`k=1 returned ${one.hits.length} hits`);
      if (wide.hits.length === 0) return noHits(ctx.levelQuery);
      const scores = wide.hits.map((hit) => hit.score).filter((score): score is number => typeof score === "number");
      if (scores.length < 2) return skip(`too few hits for "${ctx.levelQuery}" to test minScore`);
      const floor = scores[Math.floor(scores.length / 2)]!;
      const above = await hitsOf(ctx, { k: 5, minScore: floor });
      if (above.hits === undefined) return fail(above.detail);
      const below = above.hits.filter((hit) => typeof hit.score !== "number" || hit.score < floor);
      return verdict(
        below.length === 0,
        `minScore ${floor} returned scores ${shown(above.hits.map((hit) => hit.score))}`,
      );
    },
  },
  {
    id: "l1.filter-and-citations",
    section: "§14.2, §8",
    level: "L1",
    phase: "main",
    title: "hits carry citations, and an exists filter keeps only hits that have the field",
    async run(ctx) {
      const missing = needsRetrieve(ctx);
      if (missing) return missing;
      const { hits, detail } = await hitsOf(ctx, {});
      if (hits === undefined) return fail(detail);
      const citationsChecked = ctx.capabilities["citations"] !== undefined && hits.length > 0;
      if (citationsChecked && !hits.some((hit) => hit.citation !== undefined))
        return fail("citations is advertised but no hit carries a citation");
      const citations = citationsChecked
        ? "hits carry citations"
        : ctx.capabilities["citations"] === undefined
          ? "citations is not advertised"
          : "no hit came back to carry a citation";
      const fields = (ctx.capabilities["filter"] as Json | undefined)?.["fields"];
      const field: unknown = Array.isArray(fields) ? fields[0] : Object.keys(fields ?? {})[0];
      if (ctx.capabilities["filter"] === undefined) return fail("filter is not advertised");
      if (typeof field !== "string") return fail("filter advertises no field");
      const operators = (ctx.capabilities["filter"] as Json | undefined)?.["operators"];
      const existsAdvertised = !Array.isArray(operators) || operators.includes("exists");
      // Citations and the exists filter are both shown on hits.
      if (hits.length === 0 && (existsAdvertised || ctx.capabilities["citations"] !== undefined))
        return noHits(ctx.levelQuery);
      if (!existsAdvertised)
        return citationsChecked
          ? pass(`${citations}; exists is not advertised`)
          : skip(`nothing to check: ${citations} and exists is not advertised`);
      const filtered = await hitsOf(ctx, { filter: { field, op: "exists", value: true } });
      if (filtered.hits === undefined) return fail(filtered.detail);
      const without = filtered.hits.filter(
        (hit) => typeof hit.meta === "object" && hit.meta !== null && !(field in hit.meta),
      );
      if (without.length > 0) return fail(`${without.length} hits lack ${field} despite the exists filter`);
      if (filtered.hits.length === 0 && !citationsChecked)
        return skip(`nothing to check: ${citations} and the exists filter on ${field} kept no hit`);
      return pass(`${citations}; the exists filter on ${field} kept ${filtered.hits.length} hits, each with it`);
    },
  },
  {
    id: "l2.selection",
    section: "§14.3",
    level: "L2",
    phase: "main",
    title:
      "a selection of the §14.3 surface is advertised (at least two of rerank, multiVector, sparseEmbed, transform, graph, streaming, pagination, log, reproducibility)",
    run(ctx) {
      const found = L2_FEATURES.filter(([, present]) => present(ctx.capabilities)).map(([name]) => name);
      return verdict(found.length >= 2, `advertised: ${found.join(", ") || "none"}`);
    },
  },
  {
    id: "l2.pagination",
    section: "§10, §14.3",
    level: "L2",
    phase: "main",
    title: "nextCursor leads to the next page, which repeats no hit of the first",
    async run(ctx) {
      if (ctx.capabilities["pagination"] === undefined || !ctx.advertises("retrieve"))
        return skip("pagination or retrieve is not advertised");
      const first = await hitsOf(ctx, { k: 2 });
      if (first.hits?.length === 0) return noHits(ctx.levelQuery);
      const cursor = first.result?.nextCursor;
      if (typeof cursor !== "string" || cursor === "") return skip("the first page of 2 carried no nextCursor");
      const second = await hitsOf(ctx, { k: 2, cursor });
      if (second.hits === undefined) return fail(second.detail);
      const seen = new Set(first.hits!.map((hit) => JSON.stringify(hit.id)));
      const repeated = second.hits.filter((hit) => seen.has(JSON.stringify(hit.id)));
      return verdict(repeated.length === 0, `page 2 repeats ${shown(repeated.map((hit) => hit.id))}`);
    },
  },
  {
    id: "l2.logs",
    section: "§17.1, §14.3",
    level: "L2",
    should: true,
    phase: "main",
    title: "a call asking for logs (_meta.logLevel) gets well-formed notifications/log",
    async run(ctx) {
      if (ctx.capabilities["log"] === undefined) return skip("log is not advertised");
      const tried: string[] = [];
      for (const probe of ctx.probes()) {
        const exchange = await ctx.call(probe.method, probe.params, { meta: { logLevel: "debug" }, stream: true });
        const logs = exchange.notifications.filter((frame) => frame.method !== progressMethod(ctx));
        if (logs.length === 0) {
          tried.push(probe.method);
          continue;
        }
        const problems = logs.flatMap((frame) => ctx.problems(frame));
        return verdict(problems.length === 0, problems.join("; "));
      }
      return fail(`no log came with ${tried.join(", ") || "any call"}`);
    },
  },
  {
    id: "l2.deterministic",
    section: "§7.7.1, §14.3",
    level: "L2",
    phase: "main",
    title: "with retrieve.deterministic, the same query and seed return the same hits",
    async run(ctx) {
      if ((ctx.capabilities["retrieve"] as Json | undefined)?.["deterministic"] !== true)
        return skip("retrieve.deterministic is not advertised");
      const [a, b] = [await hitsOf(ctx, { seed: 7 }), await hitsOf(ctx, { seed: 7 })];
      if (a.hits === undefined || b.hits === undefined) return fail(a.detail || b.detail);
      if (a.hits.length === 0 && b.hits.length === 0) return noHits(ctx.levelQuery);
      const key = (hits: Hit[]) => JSON.stringify(hits.map((hit) => [hit.id, hit.score]));
      return verdict(key(a.hits) === key(b.hits), `two runs: ${shown(key(a.hits), 80)} and ${shown(key(b.hits), 80)}`);
    },
  },
  {
    id: "l2.snapshots",
    section: "§7.7.1, §14.3",
    level: "L2",
    phase: "main",
    title: "with retrieve.snapshots, results name their indexVersion, a pinned one is served, an unknown one fails",
    async run(ctx) {
      if ((ctx.capabilities["retrieve"] as Json | undefined)?.["snapshots"] !== true)
        return skip("retrieve.snapshots is not advertised");
      const first = await hitsOf(ctx, {});
      const version = first.result?.indexVersion;
      if (typeof version !== "string") return fail(`the result names no indexVersion: ${shown(first.result, 80)}`);
      const pinned = await hitsOf(ctx, { indexVersion: version });
      if (pinned.result?.indexVersion !== version)
        return fail(`pinned ${version}, served ${shown(pinned.result?.indexVersion)}`);
      const unknown = await ctx.call("retrieve", {
        query: ctx.query.text,
        k: 1,
        indexVersion: "x-conform-no-such-snapshot",
      });
      return verdict(
        errorCode(unknown) === -32010 || errorCode(unknown) === -32016,
        `an unknown indexVersion: ${outcome(unknown)} (expected -32010 or -32016, never another snapshot)`,
      );
    },
  },
  {
    id: "l2.progress",
    section: "§9, §14.3",
    level: "L2",
    should: true,
    phase: "main",
    title: "with streaming advertised, a streamed call reports progress",
    async run(ctx) {
      if (ctx.capabilities["streaming"] === undefined) return skip("streaming is not advertised");
      const probes = ctx.probes({ streaming: true });
      if (probes.length === 0) return skip("no streaming method is advertised");
      for (const probe of probes) {
        const exchange = await ctx.call(probe.method, probe.params, {
          meta: { progressToken: ctx.id("token") },
          stream: true,
        });
        if (exchange.notifications.some((frame) => frame.method === progressMethod(ctx)))
          return pass(`${probe.method} did`);
      }
      return fail(`none of ${probes.map((probe) => probe.method).join(", ")} reported progress`);
    },
  },
];
