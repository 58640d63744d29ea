/**
 * The schema folder covers the whole of RCP/1: every method of the §7 roster with the
 * annotations the runtime acts on, the three notifications, every §12 error code and the
 * §17.1 log levels, with every definition compiling.
 */
import { describe, expect, it } from "vitest";
import { compileRef } from "../../generator/src/load/schema-ajv.js";
import type { MethodAnnotation } from "../../generator/src/load/meta-schema/schema-files.js";
import { loadRepoSchema } from "./schema-folder.js";

const folder = loadRepoSchema();
const annotationOf = (method: string): MethodAnnotation => {
  const found = folder.methods.find((entry) => entry.method === method);
  if (!found) throw new Error(`no method ${method}`);
  return found.annotation;
};

describe("§7 method roster", () => {
  // [wire name, gating capability, streams progress]; the §7 table plus the long calls of §9.
  const roster: [string, string | null, boolean][] = [
    ["catalog/list", "catalog", false],
    ["embed", "embed", true],
    ["embed/multi", "multiVector", true],
    ["embed/sparse", "sparseEmbed", false],
    ["feedback", "feedback", false],
    ["graph", "graph", true],
    ["index/add", "index", false],
    ["index/delete", "index", false],
    ["info", null, false],
    ["initialize", null, false],
    ["memory/build", "memory", true],
    ["memory/recall", "memory", true],
    ["ping", null, false],
    ["query/transform", "transform", true],
    ["rerank", "rerank", true],
    ["retrieve", "retrieve", true],
    ["shutdown", null, false],
  ];

  it("has exactly the §7 methods, in wire-name order, in files named after them", () => {
    expect(folder.methods.map((entry) => entry.method)).toEqual(roster.map(([method]) => method));
    for (const entry of folder.methods) expect(entry.file).toBe(`methods/${entry.method.replace("/", "-")}.json`);
  });

  it.each(roster)("%s is gated by %s, streaming=%s", (method, capability, streaming) => {
    const annotation = annotationOf(method);
    expect(annotation.capability).toBe(capability);
    expect(annotation.streaming).toBe(streaming);
    if (streaming)
      expect(() => compileRef(folder, `methods/${method.replace("/", "-")}.json#/$defs/partial`)).not.toThrow();
  });

  it("lets only initialize, info, ping and shutdown run before initialize, as lifecycle methods (§13)", () => {
    for (const [method] of roster) {
      const annotation = annotationOf(method);
      const lifecycle = ["initialize", "info", "ping", "shutdown"].includes(method);
      expect(annotation.beforeInitialize, method).toBe(lifecycle);
      expect(annotation.lifecycle, method).toBe(lifecycle ? method : undefined);
    }
  });

  it("requires index.writable for index/add (§7.10) and maps legacy texts to inputs for embed (§7.3)", () => {
    expect(annotationOf("index/add").requires).toBe("index.writable");
    expect(annotationOf("embed").aliases).toEqual({ texts: "inputs" });
  });

  it("gates every retrieve option the capability advertises (§6.1, §7.7) and clamps k and rerank.topN", () => {
    const annotation = annotationOf("retrieve");
    const gated = (annotation.gates ?? []).map((gate) => `${gate.param} ${gate.in ?? gate.requires}`);
    expect(gated).toEqual(
      expect.arrayContaining([
        "mode retrieve.modes",
        "fusion.method retrieve.fusion",
        "rerank retrieve.rerankBuiltin",
        "rerank.method rerank.methods",
        "mmr retrieve.mmr",
        "unit retrieve.units",
        "modality retrieve.modalities",
        "tokenBudget retrieve.tokenBudget",
        "rewrite transform.methods",
      ]),
    );
    expect(annotation.strictParam).toBe("strict");
    expect(annotation.clamps).toEqual([
      { param: "k", max: "retrieve.maxK" },
      { param: "rerank.topN", max: "rerank.maxCandidates" },
    ]);
    expect(annotation.rules).toContainEqual({
      rule: "nonIncreasing",
      params: ["candidateK", "rerank.topN", "k"],
      spec: "§3.3",
    });
  });

  it("gates the option of every other method on its advertised list", () => {
    const gateOf = (method: string) => annotationOf(method).gates?.[0];
    expect(gateOf("rerank")).toMatchObject({ param: "method", in: "rerank.methods" });
    expect(gateOf("query/transform")).toMatchObject({ param: "method", in: "transform.methods" });
    expect(gateOf("graph")).toMatchObject({ param: "op", in: "graph.ops" });
    expect(gateOf("memory/build")).toMatchObject({ param: "scope", in: "memory.scopes" });
    expect(gateOf("embed")).toMatchObject({ param: "encoding", in: "embed.encodings", default: ["json"] });
    expect(gateOf("embed/multi")).toMatchObject({ param: "encoding", in: "multiVector.encodings", default: ["json"] });
  });
});

describe("notifications, errors and log levels", () => {
  it("defines notifications/progress, /cancel and /log under the reserved prefix (§4.5)", () => {
    expect(folder.protocol["x-rcp"].notificationPrefix).toBe("notifications/");
    expect(
      folder.notifications.map((entry) => [entry.method, entry.annotation.role, entry.annotation.direction]),
    ).toEqual([
      ["notifications/cancel", "cancel", "client"],
      ["notifications/log", "log", "server"],
      ["notifications/progress", "progress", "server"],
    ]);
  });

  it("lists every §12 code with the §12.2 retryability", () => {
    const table = Object.fromEntries(folder.errors.map((error) => [error.code, `${error.symbol} ${error.retryable}`]));
    expect(table).toEqual({
      [-32700]: "ParseError no",
      [-32600]: "InvalidRequest no",
      [-32601]: "MethodNotFound no",
      [-32602]: "InvalidParams no",
      [-32603]: "InternalError maybe",
      [-32001]: "NotInitialized yes",
      [-32002]: "VersionMismatch no",
      [-32003]: "CapabilityMissing no",
      [-32004]: "UnknownMethod no",
      [-32005]: "OptionUnsupported no",
      [-32006]: "Cancelled n/a",
      [-32010]: "BackendUnavailable yes",
      [-32011]: "RateLimited yes",
      [-32012]: "Unauthorized no",
      [-32013]: "PayloadTooLarge no",
      [-32014]: "Timeout yes",
      [-32015]: "NotFound no",
      [-32016]: "Conflict maybe",
    });
  });

  it("§17.1 has exactly five log levels, ordered from least to most severe", () => {
    expect(folder.meta.$defs.logLevel.enum).toEqual(["debug", "info", "notice", "warning", "error"]);
  });

  it("compiles every $defs entry of every file", () => {
    for (const [path, document] of folder.files)
      for (const name of Object.keys(document["$defs"] ?? {}))
        expect(() => compileRef(folder, `${path}#/$defs/${name}`), `${path} ${name}`).not.toThrow();
  });
});
