import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, describe, expect, it } from "vitest";
import { loadSchemaFolder, SchemaFolderError } from "../../generator/src/load/loader.js";
import { compileRef } from "../../generator/src/load/schema-ajv.js";
import { bundleSchema } from "../../generator/src/model/bundle.js";
import { buildModel } from "../../generator/src/model/model.js";
import {
  minimalSchemaFiles,
  removeSchemaFolders,
  schemaNode,
  writeSchemaFolder,
  type FolderFiles,
  type JsonNode,
} from "./schema-fixture.js";

afterAll(removeSchemaFolders);

/** Loads the minimal folder after `breakIt` changed it, and returns the error it must raise. */
function loadError(breakIt: (files: FolderFiles) => void): SchemaFolderError {
  const files = minimalSchemaFiles();
  breakIt(files);
  const dir = writeSchemaFolder(files);
  try {
    loadSchemaFolder(dir);
  } catch (error) {
    expect(error).toBeInstanceOf(SchemaFolderError);
    const folderError = error as SchemaFolderError;
    const lines = folderError.problems.map(({ file, pointer, problem }) => `${file}: ${pointer}: ${problem}`);
    expect(folderError.message).toBe(lines.join("\n"));
    expect(lines[0]).toBe(`${folderError.file}: ${folderError.pointer}: ${folderError.problem}`);
    return folderError;
  }
  throw new Error("the broken folder loaded without error");
}

const retrieveAnnotation = (files: FolderFiles) => schemaNode(files, "methods/retrieve.json", "/x-rcp");

describe("loadSchemaFolder on a valid folder", () => {
  const dir = writeSchemaFolder(minimalSchemaFiles());
  const folder = loadSchemaFolder(dir);

  it("lists methods sorted by wire name with their x-rcp block, and notifications and errors", () => {
    expect(folder.methods.map((method) => [method.file, method.method])).toEqual([
      ["methods/ping.json", "ping"],
      ["methods/retrieve.json", "retrieve"],
    ]);
    expect(folder.methods[1]?.annotation.streaming).toBe(true);
    expect(folder.notifications.map((notification) => notification.method)).toEqual(["notifications/progress"]);
    expect(folder.errors.map((error) => error.symbol)).toEqual(["InvalidParams", "OptionUnsupported"]);
  });

  it("assigns every file an $id from its path", () => {
    expect(folder.dir).toBe(dir);
    for (const [path, document] of folder.files) expect((document as JsonNode)["$id"]).toBe(folder.idOf(path));
    expect(folder.idOf("types/hit.json")).toMatch(/\/types\/hit\.json$/);
  });

  it("hashes content, not formatting: same JSON gives the same hash, a changed file another", () => {
    const reformatted = writeSchemaFolder({
      ...minimalSchemaFiles(),
      "meta.json": JSON.stringify(minimalSchemaFiles()["meta.json"]),
    });
    expect(loadSchemaFolder(reformatted).hash).toBe(folder.hash);
    const changed = minimalSchemaFiles();
    (changed["types/hit.json"] as JsonNode)["description"] = "changed";
    expect(loadSchemaFolder(writeSchemaFolder(changed)).hash).not.toBe(folder.hash);
    expect(folder.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("compiles a ref across files (retrieve result -> types/hit.json)", () => {
    const validateResult = compileRef(folder, "methods/retrieve.json#/$defs/result");
    expect(validateResult({ hits: [{ id: "a", score: 1 }] })).toBe(true);
    expect(validateResult({ hits: [{ score: 1 }] })).toBe(false);
    expect(validateResult.errors?.[0]?.instancePath).toBe("/hits/0");
    expect(() => compileRef(folder, "methods/retrieve.json#/$defs/nothing")).toThrow(SchemaFolderError);
  });

  it("bundles one root schema binding request params to the method by name (§4, §11)", () => {
    const validate = new Ajv2020({ strict: false }).compile(bundleSchema(folder));
    const request = (method: string, params: unknown) => ({ jsonrpc: "2.0", id: 1, method, params });
    expect(validate(request("retrieve", { query: "q", k: 3 }))).toBe(true);
    expect(validate(request("retrieve", { k: 3 }))).toBe(false);
    expect(validate(request("x-other/thing", { anything: 1 }))).toBe(true);
    expect(validate({ jsonrpc: "2.0", method: "notifications/progress", params: { progress: "half" } })).toBe(false);
    expect(validate({ jsonrpc: "2.0", id: 1, result: {} })).toBe(true);
    expect(
      validate([request("ping", {}), { jsonrpc: "2.0", method: "notifications/progress", params: { progress: 1 } }]),
    ).toBe(true);
    expect(validate([])).toBe(false);
    expect(validate([request("retrieve", {})])).toBe(false);
  });
});

describe("loadSchemaFolder rejects a broken folder with file: pointer: problem", () => {
  it("names a missing folder", () => {
    expect(() => loadSchemaFolder("/nonexistent/schema")).toThrow("/nonexistent/schema: : no such schema folder");
  });

  it("reports invalid JSON with its line and column", () => {
    const error = loadError((files) => {
      files["types/hit.json"] = '{\n  "title": "Hit",\n  "type": "object",\n}\n';
    });
    expect(error.file).toBe("types/hit.json");
    expect(error.problem).toMatch(/^invalid JSON at line 4, column 1/);
  });

  it("requires the fixed files and rejects files with no place in the folder", () => {
    expect(loadError((files) => delete files["errors.json"]).file).toBe("errors.json");
    const misplaced = loadError((files) => (files["method/rerank.json"] = { type: "object" }));
    expect(misplaced.file).toBe("method/rerank.json");
    expect(misplaced.problem).toMatch(/no place for this file/);
  });

  it("rejects an unknown x-rcp key, naming it and the allowed ones", () => {
    const error = loadError((files) => (retrieveAnnotation(files)["streamng"] = true));
    expect([error.file, error.pointer]).toEqual(["methods/retrieve.json", "/x-rcp/streamng"]);
    expect(error.problem).toMatch(/^unknown x-rcp key "streamng" \(allowed: kind, method, .*streaming/);
  });

  it.each(["Retrieve", "index/Add", "index/add/more", "x-/echo", "xacme/echo/", "index_add", "index-add"])(
    "rejects the wire name %j",
    (name) => {
      const error = loadError((files) => (retrieveAnnotation(files)["method"] = name));
      expect([error.file, error.pointer]).toEqual(["methods/retrieve.json", "/x-rcp/method"]);
      expect(error.problem).toMatch(/lower-case wire name/);
    },
  );

  it("rejects a method file without a wire name", () => {
    const error = loadError((files) => delete retrieveAnnotation(files)["method"]);
    expect([error.pointer, error.problem]).toEqual(["/x-rcp", 'missing required key "method"']);
  });

  it("rejects two files claiming the same method", () => {
    const error = loadError((files) => (files["methods/retrieve-again.json"] = files["methods/retrieve.json"]));
    expect([error.file, error.pointer]).toEqual(["methods/retrieve.json", "/x-rcp/method"]);
    expect(error.problem).toBe('method "retrieve" is already defined by methods/retrieve-again.json');
  });

  it("keeps notifications/ for notifications (§4.5)", () => {
    const method = loadError((files) => (retrieveAnnotation(files)["method"] = "notifications/retrieve"));
    expect(method.problem).toMatch(/reserved for notifications/);
    const notification = loadError(
      (files) => (schemaNode(files, "notifications/progress.json", "/x-rcp")["method"] = "events/progress"),
    );
    expect([notification.file, notification.pointer]).toEqual(["notifications/progress.json", "/x-rcp/method"]);
  });

  it("checks gates, rules and lifecycle annotations", () => {
    const gate = loadError((files) => (retrieveAnnotation(files)["gates"] = [{ param: "mode" }]));
    expect([gate.pointer, gate.problem]).toEqual([
      "/x-rcp/gates/0",
      expect.stringMatching(/exactly one of `in` or `requires`/),
    ]);
    const rule = loadError((files) => (retrieveAnnotation(files)["rules"] = [{ rule: "funnel", params: ["a", "b"] }]));
    expect(rule.pointer).toBe("/x-rcp/rules/0/rule");
    const path = loadError((files) => (retrieveAnnotation(files)["clamps"] = [{ param: "k", max: "retrieve..maxK" }]));
    expect([path.pointer, path.problem]).toEqual(["/x-rcp/clamps/0/max", expect.stringMatching(/dotted path/)]);
    const lifecycle = loadError((files) => (schemaNode(files, "methods/ping.json", "/x-rcp")["capability"] = "ping"));
    expect([lifecycle.pointer, lifecycle.problem]).toEqual([
      "/x-rcp/capability",
      expect.stringMatching(/lifecycle method is ungated/),
    ]);
  });

  it("checks a resumable annotation: only a streaming method that is not a lifecycle one (docs/resumable-streams.md)", () => {
    const lifecycle = loadError((files) => {
      const ping = schemaNode(files, "methods/ping.json", "/x-rcp");
      ping["streaming"] = true;
      ping["resumable"] = true;
    });
    expect(lifecycle.problem).toMatch(/not a lifecycle one may be resumable/);
    const silent = loadError((files) => {
      const ping = schemaNode(files, "methods/ping.json", "/x-rcp");
      delete ping["lifecycle"];
      ping["resumable"] = true;
    });
    expect(silent.problem).toMatch(/only a streaming method/);
    const notBoolean = loadError((files) => (retrieveAnnotation(files)["resumable"] = "yes"));
    expect([notBoolean.pointer, notBoolean.problem]).toEqual([
      "/x-rcp/resumable",
      expect.stringMatching(/is a boolean/),
    ]);
  });

  it("makes streaming methods resumable unless they say otherwise, never lifecycle ones", () => {
    const files = minimalSchemaFiles();
    const byDefault = buildModel(loadSchemaFolder(writeSchemaFolder(files)));
    expect(byDefault.methods.find((method) => method.method === "retrieve")!.resumable).toBe(true);
    expect(byDefault.methods.find((method) => method.method === "ping")!.resumable).toBe(false);
    retrieveAnnotation(files)["resumable"] = false;
    const off = buildModel(loadSchemaFolder(writeSchemaFolder(files)));
    expect(off.methods.find((method) => method.method === "retrieve")!.resumable).toBe(false);
  });

  it("rejects capability paths whose key capabilities.json does not declare (§6)", () => {
    const capability = loadError((files) => (retrieveAnnotation(files)["capability"] = "retreive"));
    expect([capability.file, capability.pointer]).toEqual(["methods/retrieve.json", "/x-rcp/capability"]);
    expect(capability.problem).toMatch(/^"retreive" starts with "retreive", which capabilities.json does not declare/);
    const clamp = loadError((files) => (retrieveAnnotation(files)["clamps"] = [{ param: "k", max: "search.maxK" }]));
    expect(clamp.pointer).toBe("/x-rcp/clamps/0/max");
  });

  it("rejects params paths the method's $defs.params does not declare", () => {
    const gate = loadError((files) => (retrieveAnnotation(files)["gates"] = [{ param: "mdoe", in: "retrieve.modes" }]));
    expect([gate.pointer, gate.problem]).toEqual([
      "/x-rcp/gates/0/param",
      '"mdoe" starts with "mdoe", which $defs.params does not declare',
    ]);
    const funnel = loadError(
      (files) => (retrieveAnnotation(files)["rules"] = [{ rule: "nonIncreasing", params: ["k", "topK"] }]),
    );
    expect(funnel.pointer).toBe("/x-rcp/rules/0/params/1");
  });

  it("checks a pagination annotation: its cursor is a declared param, its nextCursor a declared result member (§10)", () => {
    const cursor = loadError(
      (files) => (retrieveAnnotation(files)["pagination"] = { cursor: "cursr", nextCursor: "hits" }),
    );
    expect([cursor.pointer, cursor.problem]).toEqual([
      "/x-rcp/pagination/cursor",
      '"cursr" starts with "cursr", which $defs.params does not declare',
    ]);
    const next = loadError((files) => (retrieveAnnotation(files)["pagination"] = { cursor: "k", nextCursor: "next" }));
    expect([next.pointer, next.problem]).toEqual([
      "/x-rcp/pagination/nextCursor",
      '"next" is not a member $defs.result declares in its properties',
    ]);
    const shape = loadError((files) => (retrieveAnnotation(files)["pagination"] = { cursor: "k" }));
    expect([shape.pointer, shape.problem]).toEqual(["/x-rcp/pagination", expect.stringMatching(/nextCursor/)]);
  });

  it("checks an idempotent annotation: true, or conditions naming declared params or _meta (§7.10)", () => {
    const idempotent = (value: unknown) => (files: FolderFiles) => (retrieveAnnotation(files)["idempotent"] = value);
    const word = loadError(idempotent("yes"));
    expect([word.pointer, word.problem]).toEqual(["/x-rcp/idempotent", expect.stringMatching(/`true`.*when/)]);
    const noPresent = loadError(idempotent({ when: [{ each: "k" }] }));
    expect([noPresent.pointer, noPresent.problem]).toEqual([
      "/x-rcp/idempotent/when/0",
      expect.stringMatching(/^missing required key "present": a condition is/),
    ]);
    const undeclared = loadError(idempotent({ when: [{ present: "_meta.idempotencyKey" }, { present: "qury" }] }));
    expect([undeclared.pointer, undeclared.problem]).toEqual([
      "/x-rcp/idempotent/when/1/present",
      '"qury" starts with "qury", which $defs.params does not declare',
    ]);
    const files = minimalSchemaFiles();
    idempotent({ when: [{ present: "_meta.idempotencyKey" }, { each: "k", present: "id" }], spec: "§7.10" })(files);
    expect(loadSchemaFolder(writeSchemaFolder(files)).methods[1]!.annotation["idempotent"]).toMatchObject({
      spec: "§7.10",
    });
  });

  it("accepts one shared type per x-rcp role and rejects an unknown role or a second claimant", () => {
    const withRole = (files: FolderFiles, path: string, role: string) => {
      files[path] = { title: path === "types/hit.json" ? "Hit" : "Registry", type: "object" };
      schemaNode(files, path)["x-rcp"] = { kind: "type", role };
    };
    const unknown = loadError((files) => withRole(files, "types/registry.json", "catalog"));
    expect([unknown.file, unknown.pointer]).toEqual(["types/registry.json", "/x-rcp/role"]);
    expect(unknown.problem).toMatch(/must be registry/);
    const twice = loadError((files) => {
      withRole(files, "types/registry.json", "registry");
      withRole(files, "types/hit.json", "registry");
    });
    expect([twice.pointer, twice.problem]).toEqual(["/x-rcp/role", expect.stringMatching(/^duplicate type role/)]);
  });

  it("accepts a vendor capability left open by a patternProperties entry (§6.2)", () => {
    const files = minimalSchemaFiles();
    schemaNode(files, "capabilities.json", "/$defs/serverCapabilities")["patternProperties"] = {
      "^x-": { type: "object" },
    };
    retrieveAnnotation(files)["capability"] = "x-acme";
    expect(loadSchemaFolder(writeSchemaFolder(files)).methods[1]?.annotation.capability).toBe("x-acme");
  });

  it("requires params and result in a method file", () => {
    const error = loadError((files) => delete schemaNode(files, "methods/retrieve.json", "/$defs")["result"]);
    expect([error.file, error.pointer]).toEqual(["methods/retrieve.json", "/$defs"]);
    expect(error.problem).toMatch(/^missing required key "result"/);
  });

  it("rejects schema mistakes: a wrong type name, a keyword typo, a declared $id, draft-7 dependencies", () => {
    const typeName = loadError((files) => (schemaNode(files, "types/hit.json", "/properties/score")["type"] = "float"));
    expect([typeName.file, typeName.pointer]).toEqual(["types/hit.json", "/properties/score/type"]);
    const typo = loadError((files) => (schemaNode(files, "types/hit.json")["requried"] = ["id"]));
    expect([typo.pointer, typo.problem]).toEqual(["/requried", 'unknown JSON Schema keyword "requried"']);
    const declaredId = loadError((files) => (schemaNode(files, "types/hit.json")["$id"] = "hit"));
    expect(declaredId.pointer).toBe("/$id");
    const pattern = loadError((files) => (schemaNode(files, "types/hit.json", "/properties/id")["pattern"] = "[a-"));
    expect([pattern.pointer, pattern.problem]).toEqual([
      "/properties/id/pattern",
      expect.stringMatching(/^invalid regular expression/),
    ]);
    const closed = loadError((files) => (schemaNode(files, "types/hit.json")["additionalProperties"] = false));
    expect([closed.pointer, closed.problem]).toEqual(["/additionalProperties", expect.stringMatching(/§4\.6/)]);
    const openApiOnly = loadError(
      (files) => (schemaNode(files, "types/hit.json")["discriminator"] = { propertyName: "id" }),
    );
    expect(openApiOnly.problem).toBe('unknown JSON Schema keyword "discriminator"');
    const draft7 = loadError((files) => (schemaNode(files, "types/hit.json")["dependencies"] = { score: ["id"] }));
    expect([draft7.pointer, draft7.problem]).toEqual([
      "/dependencies",
      expect.stringMatching(/^draft-7 keyword: .*dependentRequired .*dependentSchemas/),
    ]);
  });

  it("names the referring file and pointer of a $ref to a missing file or definition", () => {
    const missingFile = loadError(
      (files) => (schemaNode(files, "types/hit.json", "/properties")["cite"] = { $ref: "citation.json" }),
    );
    expect(missingFile.message).toBe(
      'types/hit.json: /properties/cite/$ref: $ref "citation.json" points to missing file types/citation.json',
    );
    const missingDef = loadError((files) => {
      schemaNode(files, "methods/ping.json", "/$defs")["params"] = { $ref: "../meta.json#/$defs/nope" };
    });
    expect(missingDef.message).toBe(
      'methods/ping.json: /$defs/params/$ref: $ref "../meta.json#/$defs/nope" points to missing /$defs/nope in meta.json',
    );
  });

  it("rejects $ref cycles that never reach deeper data, across files too", () => {
    const local = loadError((files) => {
      schemaNode(files, "types/hit.json")["$defs"] = {
        a: { $ref: "#/$defs/b" },
        b: { allOf: [{ $ref: "#/$defs/a" }] },
      };
    });
    expect([local.file, local.pointer]).toEqual(["types/hit.json", "/$defs/a"]);
    expect(local.problem).toMatch(/^\$ref cycle that never reaches deeper data: types\/hit\.json#\/\$defs\/a -> /);
    const crossFile = loadError((files) => {
      schemaNode(files, "types/hit.json")["allOf"] = [{ $ref: "../methods/ping.json#/$defs/result" }];
      schemaNode(files, "methods/ping.json", "/$defs")["result"] = { $ref: "../types/hit.json" };
    });
    expect(crossFile.problem).toMatch(/cycle/);
  });

  it("accepts recursion through properties, which ends with the data", () => {
    const files = minimalSchemaFiles();
    schemaNode(files, "types/hit.json", "/properties")["children"] = { type: "array", items: { $ref: "#" } };
    const folder = loadSchemaFolder(writeSchemaFolder(files));
    expect(compileRef(folder, "types/hit.json")({ id: "a", children: [{ id: "b", children: [] }] })).toBe(true);
  });

  it("rejects duplicate error codes and shared type names", () => {
    const code = loadError((files) => {
      schemaNode(files, "errors.json", "/x-rcp/codes/1")["code"] = -32602;
    });
    expect([code.file, code.pointer]).toEqual(["errors.json", "/x-rcp/codes/1/code"]);
    const typeName = loadError((files) => (files["types/hit-copy.json"] = files["types/hit.json"]));
    expect(typeName.problem).toMatch(/duplicate type name "Hit"/);
  });
});

it("reads only .json files, so notes beside the schema do not matter", () => {
  const dir = writeSchemaFolder(minimalSchemaFiles());
  writeFileSync(join(dir, "README.md"), "# notes");
  expect(loadSchemaFolder(dir).methods).toHaveLength(2);
});

describe("loadSchemaFolder reports every problem it finds in one run", () => {
  /** The `file: pointer` of each problem the broken folder raises, in order. */
  function located(breakIt: (files: FolderFiles) => void): string[] {
    const error = loadError(breakIt);
    return error.problems.map((problem) => `${problem.file}: ${problem.pointer}`);
  }

  it("each file on its own: invalid JSON, keyword typos, a bad pattern, a missing required file", () => {
    const problems = located((files) => {
      delete files["errors.json"];
      files["types/broken.json"] = '{ "title": ';
      schemaNode(files, "types/hit.json")["requried"] = ["id"];
      schemaNode(files, "types/hit.json", "/properties/id")["pattern"] = "[a-";
      schemaNode(files, "types/hit.json", "/properties/score")["maximun"] = 1;
      retrieveAnnotation(files)["stremaing"] = true;
    });
    expect(problems).toEqual([
      "types/broken.json: ",
      "errors.json: ",
      "methods/retrieve.json: /x-rcp/stremaing",
      "types/hit.json: /requried",
      "types/hit.json: /properties/id/pattern",
      "types/hit.json: /properties/score/maximun",
    ]);
  });

  it("every unresolvable $ref and $ref cycle, across files", () => {
    const problems = located((files) => {
      schemaNode(files, "types/hit.json", "/properties")["cite"] = { $ref: "citation.json" };
      schemaNode(files, "methods/retrieve.json", "/$defs")["partial"] = { $ref: "#/$defs/nothing" };
      files["types/a.json"] = { title: "A", $ref: "b.json" };
      files["types/b.json"] = { title: "B", $ref: "a.json" };
    });
    expect(problems).toEqual([
      "methods/retrieve.json: /$defs/partial/$ref",
      "types/a.json: ",
      "types/hit.json: /properties/cite/$ref",
    ]);
  });

  it("every problem across files once each file is sound: a method claimed twice, unknown paths", () => {
    const problems = located((files) => {
      files["methods/retrieve-again.json"] = structuredClone(files["methods/retrieve.json"]);
      retrieveAnnotation(files)["clamps"] = [{ param: "k", max: "search.maxK" }];
      retrieveAnnotation(files)["gates"] = [{ param: "mdoe", in: "retrieve.modes" }];
    });
    expect(problems).toEqual([
      "methods/retrieve.json: /x-rcp/method",
      "methods/retrieve.json: /x-rcp/clamps/0/max",
      "methods/retrieve.json: /x-rcp/gates/0/param",
    ]);
  });
});
