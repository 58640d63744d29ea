/**
 * What RCP/1's method sections require of results beyond their shape: writes are upserts and
 * deletes idempotent (§7.10, §7.11), retrieve never returns more than k (§7.7), embed returns
 * one vector per input, accepts the legacy `texts` and encodes f32-base64 exactly (§7.3,
 * §7.3.1), rerank scores every passage (§7.6). Each applies when its method is advertised.
 */
import { fail, shown, skip, verdict, type CaseVerdict, type CheckEntry, type Verdict } from "../check.js";
import { errorCode, outcome, resultOf } from "../context.js";

type Json = Record<string, unknown>;

export const semanticChecks: CheckEntry[] = [
  {
    id: "index.writes",
    section: "§7.10, §7.11",
    level: "L0",
    phase: "main",
    title: "index writes",
    async run(ctx): Promise<CaseVerdict[] | Verdict> {
      if (!ctx.advertises("index/add") || !ctx.advertises("index/delete"))
        return skip("no writable index is advertised");
      const id = ctx.id("upsert");
      const first = await ctx.call("index/add", { documents: [{ id, text: `${ctx.query.text} upsert probe one` }] });
      const ids = resultOf(first)?.ids;
      const again = await ctx.call("index/add", { documents: [{ id, text: `${ctx.query.text} upsert probe two` }] });
      const deleted = await ctx.call("index/delete", { ids: [id] });
      const repeat = await ctx.call("index/delete", { ids: [id] });
      return [
        {
          key: "positional-ids",
          title: "index/add returns one id per document, in order",
          section: "§7.10",
          ...verdict(Array.isArray(ids) && ids.length === 1, `index/add: ${shown(first.response)}`),
        },
        {
          key: "upsert",
          title: "re-adding a document's id replaces it (or is -32016), never fails otherwise",
          section: "§7.10",
          ...verdict(
            resultOf(again) !== undefined || errorCode(again) === -32016,
            `second index/add: ${outcome(again)}`,
          ),
        },
        {
          key: "delete-idempotent",
          title: "deleting an absent id is not an error and counts 0",
          section: "§7.11",
          ...verdict(
            resultOf(deleted) !== undefined && resultOf(repeat)?.deleted === 0,
            `deletes answered ${shown(deleted.response, 80)} then ${shown(repeat.response, 80)}`,
          ),
        },
      ];
    },
  },
  {
    id: "retrieve.at-most-k",
    section: "§7.7",
    level: "L0",
    phase: "main",
    title: "retrieve returns at most k hits",
    async run(ctx) {
      if (!ctx.advertises("retrieve")) return skip("retrieve is not advertised");
      const params = { query: ctx.query.text, k: 2 };
      const result = resultOf(await ctx.call("retrieve", params));
      const hits = result?.hits;
      if (!Array.isArray(hits)) return fail(`retrieve k=2: ${shown(result)}`);
      // Nothing to count is no evidence either way; L0 is about the protocol, so it is only skipped.
      if (hits.length === 0) return skip(`no hits for "${params.query}" to count`);
      return verdict(hits.length <= 2, `k=2 returned ${hits.length} hits`);
    },
  },
  {
    id: "embed.vectors",
    section: "§7.3, §7.3.1",
    level: "L0",
    phase: "main",
    title: "embed",
    async run(ctx): Promise<CaseVerdict[] | Verdict> {
      if (!ctx.advertises("embed")) return skip("embed is not advertised");
      const metadata = ctx.capabilities["embed"] as Json;
      const dimension = metadata.dimension;
      const inputs = [ctx.query.text, `${ctx.query.text} two`];
      const plain = resultOf(await ctx.call("embed", { inputs }));
      const vectors = plain?.vectors;
      const cases: CaseVerdict[] = [
        {
          key: "one-per-input",
          title: "one vector per input, each of the advertised dimension",
          ...verdict(
            Array.isArray(vectors) &&
              vectors.length === 2 &&
              vectors.every((vector) => Array.isArray(vector) && vector.length === dimension),
            `2 inputs gave ${shown(vectors, 80)} (embed.dimension ${shown(dimension)})`,
          ),
        },
      ];
      const legacy = await ctx.call("embed", { texts: inputs });
      cases.push({
        key: "legacy-texts",
        title: "the legacy texts is accepted for inputs",
        ...verdict(
          Array.isArray(resultOf(legacy)?.vectors) && (resultOf(legacy)!.vectors as unknown[]).length === 2,
          `embed with texts: ${outcome(legacy)}`,
        ),
      });
      const encodings = metadata.encodings;
      if (Array.isArray(encodings) && encodings.includes("f32-base64")) {
        const encoded = resultOf(await ctx.call("embed", { inputs, encoding: "f32-base64" }));
        cases.push({
          key: "f32-base64",
          title: "f32-base64 is echoed, with dimension, each blob dimension x 4 bytes",
          ...f32Verdict(encoded),
        });
      }
      return cases;
    },
  },
  {
    id: "rerank.scores",
    section: "§7.6",
    level: "L0",
    phase: "main",
    title: "rerank scores every passage, scores[i] for passages[i]",
    async run(ctx) {
      if (!ctx.advertises("rerank")) return skip("rerank is not advertised");
      const passages = [`${ctx.query.text} first`, "second", "third"];
      const exchange = await ctx.call("rerank", { query: ctx.query.text, passages });
      const result = resultOf(exchange);
      const scores = result?.scores;
      const order = result?.order;
      const orderOk =
        order === undefined ||
        (Array.isArray(order) &&
          new Set(order).size === order.length &&
          order.every((index) => Number.isInteger(index) && index >= 0 && index < 3));
      return verdict(
        Array.isArray(scores) && scores.length === 3 && orderOk,
        `3 passages: ${outcome(exchange)} ${shown(result, 100)}`,
      );
    },
  },
];

function f32Verdict(result: Json | undefined): Verdict {
  if (result === undefined) return fail("embed with encoding f32-base64 failed");
  const { vectors, encoding, dimension } = result;
  if (encoding !== "f32-base64" || typeof dimension !== "number")
    return fail(`encoding ${shown(encoding)}, dimension ${shown(dimension)}: both must be present`);
  const sizes = Array.isArray(vectors)
    ? vectors.map((blob) => (typeof blob === "string" ? Buffer.from(blob, "base64").length : -1))
    : [];
  return verdict(
    sizes.length === 2 && sizes.every((size) => size === dimension * 4),
    `blob sizes ${sizes.join(", ")}; expected ${dimension * 4}`,
  );
}
