/**
 * The corpus of `rcp-gen breaking`: one case per rule and per change that is easy to get
 * wrong, each an edit of this repository's schema/ (the new folder, or with `old` the old
 * one) and the findings expected, as `severity rule file#pointer`.
 */
import { at, list, remove, set, type Files } from "./schema-copy.js";

export interface EvolveCase {
  readonly name: string;
  /** Applied to the old folder's copy; none: schema/ as it is. */
  readonly old?: (files: Files) => void;
  /** Applied to the new folder's copy; none: schema/ as it is. */
  readonly change?: (files: Files) => void;
  readonly expected: readonly string[];
}

const retrieve = "methods/retrieve.json";
const warming = { code: -32099, symbol: "EngineWarming", message: "The index is still loading.", retryable: "yes" };

export const cases: readonly EvolveCase[] = [
  // Params: client → server.
  {
    name: "a method's descriptive hints (writes, errors) changing is safe: no peer reads them",
    change: (files) =>
      files.edit(retrieve, (doc) => {
        set(doc, "/x-rcp/writes", true);
        set(doc, "/x-rcp/errors", ["NotFound"]);
      }),
    expected: [
      "safe method-hint-changed methods/retrieve.json#/x-rcp/errors",
      "safe method-hint-changed methods/retrieve.json#/x-rcp/writes",
    ],
  },
  {
    name: "params: a new required member breaks deployed clients",
    change: (files) => files.edit(retrieve, (doc) => list(doc, "/$defs/params/required").push("mode")),
    expected: ["wire required-added methods/retrieve.json#/$defs/params/required"],
  },
  {
    name: "params: a new optional member is safe (§4.6)",
    change: (files) =>
      files.edit(retrieve, (doc) =>
        set(doc, "/$defs/params/properties/explain", { type: "boolean", description: "Explain." }),
      ),
    expected: ["safe member-added methods/retrieve.json#/$defs/params/properties/explain"],
  },
  {
    name: "params: a removed member that was accepted breaks",
    change: (files) => files.edit(retrieve, (doc) => remove(doc, "/$defs/params/properties/minScore")),
    expected: ["wire member-removed methods/retrieve.json#/$defs/params/properties/minScore"],
  },
  {
    name: "params: an enum value removed breaks",
    change: (files) => files.edit(retrieve, (doc) => list(doc, "/$defs/params/properties/rewrite/enum").splice(1, 1)),
    expected: ["wire enum-narrowed methods/retrieve.json#/$defs/params/properties/rewrite/enum"],
  },
  {
    name: "params: an enum value added is safe",
    change: (files) =>
      files.edit(retrieve, (doc) => list(doc, "/$defs/params/properties/rewrite/enum").push("step-back")),
    expected: ["safe enum-widened methods/retrieve.json#/$defs/params/properties/rewrite/enum"],
  },
  {
    name: "params: a narrowed type breaks",
    change: (files) =>
      files.edit("methods/ping.json", (doc) => set(doc, "/$defs/params/properties/nonce/type", "string")),
    expected: ["wire type-narrowed methods/ping.json#/$defs/params/properties/nonce/type"],
  },
  {
    name: "params: number to integer narrows, integer to number widens",
    change: (files) =>
      files.edit(retrieve, (doc) => {
        set(doc, "/$defs/params/properties/minScore/type", "integer");
        set(doc, "/$defs/params/properties/k/type", "number");
      }),
    expected: [
      "wire type-narrowed methods/retrieve.json#/$defs/params/properties/minScore/type",
      "safe type-widened methods/retrieve.json#/$defs/params/properties/k/type",
    ],
  },
  {
    name: "params: a tighter minimum breaks, a looser one is safe",
    change: (files) =>
      files.edit(retrieve, (doc) => {
        set(doc, "/$defs/params/properties/k/minimum", 1);
        remove(doc, "/$defs/params/properties/candidateK/minimum");
      }),
    expected: [
      "wire range-narrowed methods/retrieve.json#/$defs/params/properties/k/minimum",
      "safe range-widened methods/retrieve.json#/$defs/params/properties/candidateK/minimum",
    ],
  },
  {
    name: "params: a new pattern breaks",
    change: (files) =>
      files.edit(retrieve, (doc) => set(doc, "/$defs/params/properties/recency/properties/field/pattern", "^[a-z]+$")),
    expected: ["wire pattern-narrowed methods/retrieve.json#/$defs/params/properties/recency/properties/field/pattern"],
  },
  {
    name: "params: a map's values constrained breaks",
    change: (files) =>
      files.edit(retrieve, (doc) =>
        set(doc, "/$defs/params/properties/fusion/properties/weights/additionalProperties", { type: "number" }),
      ),
    expected: [
      "wire additional-properties-narrowed methods/retrieve.json#/$defs/params/properties/fusion/properties/weights/additionalProperties",
    ],
  },
  {
    name: "params: a oneOf alternative added is safe, one removed breaks",
    change: (files) =>
      files.edit(retrieve, (doc) => {
        const alternatives = list(doc, "/$defs/params/properties/rerank/oneOf");
        alternatives.splice(1, 1, { const: "auto", description: "Let the server choose." });
      }),
    expected: [
      "wire alternative-removed methods/retrieve.json#/$defs/params/properties/rerank/oneOf",
      "safe alternative-added methods/retrieve.json#/$defs/params/properties/rerank/oneOf/1",
    ],
  },
  {
    name: "oneOf: reordered alternatives are the same schema",
    change: (files) => files.edit("types/vector.json", (doc) => list(doc, "/oneOf").reverse()),
    expected: ["safe rewritten types/vector.json#"],
  },
  {
    name: "$ref chain: params → types/query-input.json → types/content.json, narrowed where it is written",
    change: (files) => files.edit("types/content.json", (doc) => set(doc, "/properties/mimeType/pattern", "^[a-z]+/")),
    expected: ["wire pattern-narrowed types/content.json#/properties/mimeType/pattern"],
  },
  {
    name: "$ref chain: a schema moved into types/ behind a $ref is the same schema",
    change: (files) =>
      files.edit(retrieve, (doc) => {
        const { description, ...mmr } = at(doc, "/$defs/params/properties/mmr");
        files.write("types/mmr.json", { title: "Mmr", description, ...mmr });
        set(doc, "/$defs/params/properties/mmr", { $ref: "../types/mmr.json", description });
      }),
    expected: ["safe type-added types/mmr.json#", "safe rewritten methods/retrieve.json#/$defs/params"],
  },
  {
    name: "$ref cycle: a change inside the recursive filter tree is found once",
    change: (files) =>
      files.edit("types/filter-clause.json", (doc) => {
        const kept = list(doc, "/properties/op/enum").filter((operator) => operator !== "contains");
        set(doc, "/properties/op/enum", kept);
      }),
    expected: ["wire enum-narrowed types/filter-clause.json#/properties/op/enum"],
  },
  // Results, partials and server notifications: server → client.
  {
    name: "result: a new optional member is safe (§4.6)",
    change: (files) =>
      files.edit("types/hit.json", (doc) =>
        set(doc, "/properties/rank", { type: "integer", description: "1-based rank." }),
      ),
    expected: ["safe member-added types/hit.json#/properties/rank"],
  },
  {
    name: "result: a required member made optional breaks",
    change: (files) => files.edit("types/hit.json", (doc) => set(doc, "/required", ["id"])),
    expected: ["wire required-removed types/hit.json#/required"],
  },
  {
    name: "result: a required member removed breaks",
    change: (files) =>
      files.edit("types/hit.json", (doc) => {
        set(doc, "/required", ["id"]);
        remove(doc, "/properties/score");
      }),
    expected: [
      "wire required-removed types/hit.json#/required",
      "safe member-removed types/hit.json#/properties/score",
    ],
  },
  {
    name: "result: an optional member removed is safe",
    change: (files) => files.edit("types/hit.json", (doc) => remove(doc, "/properties/level")),
    expected: ["safe member-removed types/hit.json#/properties/level"],
  },
  {
    name: "result: a member made required breaks handlers' code, no deployed peer",
    change: (files) => files.edit("types/hit.json", (doc) => list(doc, "/required").push("text")),
    expected: ["code required-added-in-output types/hit.json#/required"],
  },
  {
    name: "result: a widened type breaks, a narrowed one is safe",
    change: (files) =>
      files.edit("methods/ping.json", (doc) => {
        set(doc, "/$defs/result/properties/nonce/type", ["string", "number", "boolean"]);
      }),
    expected: ["wire type-widened methods/ping.json#/$defs/result/properties/nonce/type"],
  },
  {
    name: "result: a narrowed type is safe",
    change: (files) =>
      files.edit("methods/ping.json", (doc) => set(doc, "/$defs/result/properties/nonce/type", "string")),
    expected: ["safe type-narrowed methods/ping.json#/$defs/result/properties/nonce/type"],
  },
  {
    name: "result: an enum value the client's types do not know breaks (even if params accept it)",
    change: (files) => files.edit("types/modality.json", (doc) => list(doc, "/enum").push("video")),
    expected: ["wire enum-widened types/modality.json#/enum"],
  },
  {
    name: "result: a looser maximum breaks",
    change: (files) => files.edit("types/hit.json", (doc) => remove(doc, "/properties/confidence/maximum")),
    expected: ["wire range-widened types/hit.json#/properties/confidence/maximum"],
  },
  {
    name: "result: a oneOf alternative added breaks",
    change: (files) =>
      files.edit("types/vector.json", (doc) =>
        list(doc, "/oneOf").push({ type: "object", description: "A sparse vector." }),
      ),
    expected: ["wire alternative-added types/vector.json#/oneOf/2"],
  },
  {
    name: "result: a map's values no longer constrained breaks",
    change: (files) =>
      files.edit("capabilities.json", (doc) =>
        remove(doc, "/$defs/filter/properties/fields/anyOf/0/additionalProperties"),
      ),
    expected: [
      "wire additional-properties-widened capabilities.json#/$defs/filter/properties/fields/anyOf/0/additionalProperties",
    ],
  },
  {
    name: "partial: removing a streaming method's partial schema breaks",
    change: (files) => files.edit(retrieve, (doc) => remove(doc, "/$defs/partial")),
    expected: ["wire partial-removed methods/retrieve.json#/$defs/partial"],
  },
  {
    name: "server notification: a widened member breaks",
    change: (files) =>
      files.edit("notifications/progress.json", (doc) => remove(doc, "/$defs/params/properties/progress/maximum")),
    expected: ["wire range-widened notifications/progress.json#/$defs/params/properties/progress/maximum"],
  },
  // Names and annotations.
  {
    name: "a method removed breaks",
    change: (files) => files.remove("methods/graph.json"),
    expected: ["wire method-removed methods/graph.json#/x-rcp/method"],
  },
  {
    name: "a method added is safe",
    change: (files) =>
      files.write("methods/x-acme-echo.json", {
        ...files.read("methods/ping.json"),
        title: "x-acme/echo",
        "x-rcp": { kind: "method", method: "x-acme/echo", capability: "x-acme", streaming: false },
      }),
    expected: ["safe method-added methods/x-acme-echo.json#/x-rcp/method"],
  },
  {
    name: "a method renamed breaks (and its client method name changes)",
    change: (files) => files.edit("methods/feedback.json", (doc) => set(doc, "/x-rcp/method", "feedback/send")),
    expected: ["wire method-renamed methods/feedback.json#/x-rcp/method"],
  },
  {
    name: "a method's gating capability changed breaks",
    change: (files) => files.edit("methods/graph.json", (doc) => set(doc, "/x-rcp/capability", "retrieve")),
    expected: ["wire method-gate-changed methods/graph.json#/x-rcp/capability"],
  },
  {
    name: "streaming turned off breaks, turned on is safe",
    change: (files) => {
      files.edit(retrieve, (doc) => {
        set(doc, "/x-rcp/streaming", false);
        remove(doc, "/$defs/partial");
      });
      files.edit("methods/catalog-list.json", (doc) => set(doc, "/x-rcp/streaming", true));
    },
    expected: [
      "wire partial-removed methods/retrieve.json#/$defs/partial",
      "wire streaming-removed methods/retrieve.json#/x-rcp/streaming",
      "safe streaming-added methods/catalog-list.json#/x-rcp/streaming",
    ],
  },
  {
    name: "before-initialize changed breaks",
    change: (files) => files.edit("methods/ping.json", (doc) => set(doc, "/x-rcp/beforeInitialize", false)),
    expected: ["wire before-initialize-changed methods/ping.json#/x-rcp/beforeInitialize"],
  },
  {
    name: "an option gate added breaks, a param alias removed breaks, a clamp is safe",
    change: (files) => {
      files.edit(retrieve, (doc) => {
        list(doc, "/x-rcp/gates").push({ param: "seed", requires: "retrieve.deterministic" });
        list(doc, "/x-rcp/clamps").pop();
      });
      files.edit("methods/rerank.json", (doc) => remove(doc, "/x-rcp/aliases"));
    },
    expected: [
      "wire option-gate-added methods/retrieve.json#/x-rcp/gates/12",
      "wire param-alias-removed methods/rerank.json#/x-rcp/aliases/documents",
      "safe clamp-changed methods/retrieve.json#/x-rcp/clamps/1",
    ],
  },
  {
    name: "idempotence weakened breaks",
    change: (files) => files.edit(retrieve, (doc) => set(doc, "/x-rcp/idempotent", false)),
    expected: ["wire idempotence-weakened methods/retrieve.json#/x-rcp/idempotent"],
  },
  {
    name: "a notification removed breaks",
    change: (files) => files.remove("notifications/log.json"),
    expected: ["wire notification-removed notifications/log.json#/x-rcp/method"],
  },
  {
    name: "a notification renamed breaks",
    change: (files) =>
      files.edit("notifications/log.json", (doc) => set(doc, "/x-rcp/method", "notifications/message")),
    expected: ["wire notification-renamed notifications/log.json#/x-rcp/method"],
  },
  {
    name: "a capability removed or renamed breaks, one added is safe",
    change: (files) =>
      files.edit("capabilities.json", (doc) => {
        const server = at(doc, "/$defs/serverCapabilities/properties");
        delete server.session;
        server["x-citations"] = server.citations;
        delete server.citations;
        server.tracing = { type: "object", description: "Trace ids in _meta." };
      }),
    expected: [
      "wire capability-removed capabilities.json#/$defs/serverCapabilities/properties/session",
      "wire capability-renamed capabilities.json#/$defs/serverCapabilities/properties/x-citations",
      "safe capability-added capabilities.json#/$defs/serverCapabilities/properties/tracing",
    ],
  },
  {
    name: "an error code removed breaks; a symbol renamed breaks only code",
    // A code of the folder's own: RCP/1's codes keep the runtime's symbols.
    old: (files) => files.edit("errors.json", (doc) => list(doc, "/x-rcp/codes").push(warming)),
    change: (files) =>
      files.edit("errors.json", (doc) => {
        list(doc, "/x-rcp/codes").push({ ...warming, symbol: "IndexWarming" });
        list(doc, "/x-rcp/codes").splice(2, 1);
      }),
    expected: [
      "wire error-code-removed errors.json#/x-rcp/codes/2",
      "code error-symbol-renamed errors.json#/x-rcp/codes/17/symbol",
    ],
  },
  {
    name: "a shared type renamed breaks only code",
    change: (files) => files.edit("types/usage.json", (doc) => set(doc, "/title", "UsageReport")),
    expected: ["code type-renamed types/usage.json#/title"],
  },
  {
    name: "a titled definition renamed breaks only code",
    change: (files) => files.edit("capabilities.json", (doc) => set(doc, "/$defs/embed/title", "DenseEmbedCapability")),
    expected: ["code type-renamed capabilities.json#/$defs/embed/title"],
  },
  {
    name: "the protocol version changed breaks",
    change: (files) => files.edit("protocol.json", (doc) => set(doc, "/x-rcp/version", 2)),
    expected: ["wire protocol-version-changed protocol.json#/x-rcp/version"],
  },
  {
    name: "a description changed is safe",
    change: (files) => files.edit("types/hit.json", (doc) => set(doc, "/properties/text/description", "The body.")),
    expected: ["safe doc-changed types/hit.json#/properties/text/description"],
  },
  {
    name: "_meta is sent both ways: any narrowing or widening breaks",
    change: (files) => files.edit("meta.json", (doc) => set(doc, "/$defs/progressToken/type", "string")),
    expected: ["wire type-narrowed meta.json#/$defs/progressToken/type"],
  },
  {
    name: "a keyword no rule knows is flagged, never passed over",
    change: (files) =>
      files.edit(retrieve, (doc) => set(doc, "/$defs/params/properties/k/dependentRequired", { k: ["query"] })),
    expected: ["wire condition-changed methods/retrieve.json#/$defs/params/properties/k/dependentRequired"],
  },
  {
    name: "no change, no finding",
    expected: [],
  },
];
