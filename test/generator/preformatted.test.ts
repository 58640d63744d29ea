/**
 * methods.ts, server.ts, client.ts, node.ts and index.ts are printed already laid out
 * (generator/src/plugin/layout/), prettier running only on a file the layout cannot vouch for.
 * For each schema folder below, each file is exactly what prettier makes of the same code
 * printed unlaid (what rcp-gen gave before, and what its safety net gives), prettier leaves it
 * unchanged, and only the files expected to go to prettier do. A layout rule that drifts from
 * prettier's fails here; so does one that sends a file to prettier needlessly.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import * as prettier from "prettier";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientTarget } from "../../generator/src/emit/emit-client.js";
import { indexTarget } from "../../generator/src/emit/emit-index.js";
import { methodsTarget } from "../../generator/src/emit/emit-methods.js";
import { nodeTarget } from "../../generator/src/emit/emit-node.js";
import { serverTarget } from "../../generator/src/emit/emit-server.js";
import { literal } from "../../generator/src/emit/literal.js";
import { loadSchemaFolder } from "../../generator/src/load/loader.js";
import { buildModel } from "../../generator/src/model/model.js";
import { bannerLines } from "../../generator/src/plugin/banner.js";
import { GeneratedFile, type NewFileOptions } from "../../generator/src/plugin/generated-file.js";
import { layOut } from "../../generator/src/plugin/layout/lay-out.js";
import { defaultTargets } from "../../generator/src/plugin/targets.js";
import { prettierOptions } from "../../generator/src/plugin/prettier-options.js";
import { minimalSchemaFiles, removeSchemaFolders, writeSchemaFolder, type FolderFiles } from "./schema-fixture.js";
import { repoRoot } from "./run-cli.js";

const scratch = mkdtempSync(join(tmpdir(), "rcp-preformatted-"));
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
  removeSchemaFolders();
});

const targets = [methodsTarget, serverTarget, clientTarget, nodeTarget, indexTarget];
const banner = bannerLines("npx rcp-gen");
const format = (text: string) => prettier.format(text, prettierOptions);

interface LaidOutFile {
  /** What rcp-gen writes. */
  readonly text: string;
  /** Prettier's layout of the same code printed unlaid. */
  readonly prettiers: string;
  /** Whether rcp-gen itself sent it to prettier. */
  readonly wentToPrettier: boolean;
}

/** The five files for the schema folder `dir`, each laid out and as prettier lays it out. */
async function layOutFolder(dir: string): Promise<Map<string, LaidOutFile>> {
  const model = buildModel(loadSchemaFolder(dir));
  const run = (force?: NewFileOptions) =>
    Promise.all(
      targets.map((target) =>
        target.generate({
          model,
          targets: new Set(defaultTargets),
          examples: undefined,
          newFile: (path, options) => new GeneratedFile(path, "@rcp-gen/runtime/codegen", { ...options, ...force }),
        }),
      ),
    );
  const [printed, unlaid] = await Promise.all([run(), run({ format: true })]);
  const files = new Map<string, LaidOutFile>();
  for (const [index, file] of printed.flat().entries()) {
    let wentToPrettier = false;
    const text = await file.render(banner, (unformatted) => {
      wentToPrettier = true;
      return format(unformatted);
    });
    files.set(file.path, { text, prettiers: await unlaid.flat()[index]!.render(banner, format), wentToPrettier });
  }
  return files;
}

/** One case per folder: every file is prettier's; the files in `toPrettier` (only) went to prettier. */
function describeFolder(name: string, folder: () => string, toPrettier: readonly string[] = []): void {
  describe(name, () => {
    let files: Map<string, LaidOutFile>;
    beforeAll(async () => {
      files = await layOutFolder(folder());
    });

    it("lays out each file exactly as prettier does", async () => {
      expect([...files.keys()].sort()).toEqual(["client.ts", "index.ts", "methods.ts", "node.ts", "server.ts"]);
      for (const [path, { text, prettiers }] of files) {
        expect(text, path).toBe(prettiers);
        expect(await format(text), path).toBe(text);
      }
    });

    it(`sends ${toPrettier.length === 0 ? "no file" : toPrettier.join(", ")} to prettier`, () => {
      const sent = [...files].filter(([, file]) => file.wentToPrettier).map(([path]) => path);
      expect(sent.sort()).toEqual([...toPrettier].sort());
    });
  });
}

/** Minimal's retrieve edited by `edit`, in a fresh folder. */
function editedMinimal(edit: (files: FolderFiles, retrieve: Record<string, any>) => void): string {
  const files = minimalSchemaFiles();
  edit(files, files["methods/retrieve.json"] as Record<string, any>);
  return writeSchemaFolder(files);
}

/** Adds an error code to an errors.json document. */
function addError(errors: unknown, code: number, message: string): void {
  (errors as { "x-rcp": { codes: object[] } })["x-rcp"].codes.push({
    code,
    symbol: `Code${-code}`,
    message,
    retryable: "no",
  });
}

/**
 * A copy of schema/ with `count` vendor methods (clones of retrieve) named `x-<vendor>/m0001-...`,
 * their names of varied length; some need a second capability, some page, some stream, some
 * take no required params, and their descriptions end comments and quote.
 */
function vendorFolder(count: number, vendor: string): string {
  const folder = mkdtempSync(join(scratch, "vendor-"));
  cpSync(join(repoRoot, "schema"), folder, { recursive: true });
  const retrieve = JSON.parse(readFileSync(join(folder, "methods/retrieve.json"), "utf8")) as Record<string, any>;
  const descriptions = [
    "Ends */ a comment, `code`, 'single' and \"double\" quotes.",
    "Two lines  \nand a third.",
    "Plain.",
  ];
  for (let index = 1; index <= count; index += 1) {
    const name = `m${String(index).padStart(4, "0")}${"-part".repeat(index % 5)}`;
    const method = `${vendor}/${name}`;
    const file = {
      ...retrieve,
      title: method,
      description: descriptions[index % 3],
      "x-rcp": {
        kind: "method",
        method,
        capability: index % 4 === 0 ? "retrieve" : `${vendor}-${index % 7}`,
        streaming: index % 3 !== 0,
        ...(index % 6 === 1 ? { requires: `${vendor}-${index % 7}.feature.enabled` } : {}),
        ...(index % 13 === 4 ? { pagination: { cursor: "cursor", nextCursor: "nextCursor" } } : {}),
        ...(index % 5 === 2 ? { aliases: { "top k": "k", default: "k" } } : {}),
      },
      ...(index % 9 === 0
        ? { $defs: { ...retrieve["$defs"], params: { ...retrieve["$defs"].params, required: [] } } }
        : {}),
    };
    writeFileSync(join(folder, "methods", `${vendor}-${name}.json`), JSON.stringify(file));
  }
  const errors: unknown = JSON.parse(readFileSync(join(folder, "errors.json"), "utf8"));
  addError(errors, -32090, "A message too long for one line, ".repeat(5).trim());
  writeFileSync(join(folder, "errors.json"), JSON.stringify(errors));
  return folder;
}

describeFolder("RCP/1 (schema/)", () => join(repoRoot, "schema"));

describeFolder("the minimal fixture folder", () => writeSchemaFolder(minimalSchemaFiles()));

describeFolder("a folder of lifecycle methods only (empty interfaces, classes and unions)", () =>
  editedMinimal((files) => delete files["methods/retrieve.json"]),
);

describeFolder("awkward text: CRLF, trailing spaces, `*/`, quotes, keys to quote, numbers", () =>
  editedMinimal((files, retrieve) => {
    retrieve["description"] = "A Markdown break  \r\nends */ here \r\n   \r\n`tick`, \"double\" and 'single'  ";
    retrieve["x-rcp"].requires = "retrieve.deep";
    retrieve["x-rcp"].aliases = { "top k": "k", default: "k", $k: "k", "1": "k" };
    retrieve["x-rcp"].gates.push({ param: "k", requires: "retrieve.k", default: [1, 2.5, -3, 1e21] });
    retrieve["x-rcp"].gates.push({ param: "k", requires: "retrieve.k", default: [["a", "b"], ["c", "d"], [{}]] });
    addError(files["errors.json"], -32050, `it's "quoted" "twice"`);
  }),
);

describeFolder("RCP/1 and 300 vendor methods with long names", () => vendorFolder(300, "x-acme-search-systems"));

describe("the safety net", () => {
  describeFolder(
    "a wire name so long that prettier breaks the client's calls of it",
    () => editedMinimal((_files, retrieve) => (retrieve["x-rcp"].method = `x-acme/${"long-".repeat(16)}name`)),
    ["client.ts"],
  );

  describeFolder(
    "an error message of characters whose width only prettier's tables know",
    () => editedMinimal((files) => addError(files["errors.json"], -32050, "服务暂时不可用，请稍后重试。".repeat(6))),
    ["methods.ts"],
  );

  describeFolder(
    "a list of numbers too long for a line, which prettier fills",
    () =>
      editedMinimal((_files, retrieve) =>
        retrieve["x-rcp"].gates.push({
          param: "k",
          requires: "retrieve.k",
          default: Array.from({ length: 40 }, (_, i) => i * 100),
        }),
      ),
    ["methods.ts"],
  );
});

it("keeps a banner holding a line break (a path with one) in comments, laid out and for prettier alike", async () => {
  const file = new GeneratedFile("index.ts", "@rcp-gen/runtime/codegen", { format: "printed" });
  file.print("export {};");
  const text = await file.render(["DO NOT EDIT.", "Regenerate with: npx rcp-gen --out 'a\nb'"], format);
  expect(text).toBe("// DO NOT EDIT.\n// Regenerate with: npx rcp-gen --out 'a\n// b'\nexport {};\n");
  expect(await format(text)).toBe(text);
});

describe("descriptor data", () => {
  it("is laid out as prettier lays out the same object, or left to prettier, for any JSON", async () => {
    const value = fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 });
    let vouched = 0;
    await fc.assert(
      fc.asyncProperty(value, async (data) => {
        const laidOut = layOut(["export const data = ", literal(data), " as const;"], 120);
        if (laidOut.unvouched !== undefined) return;
        vouched += 1;
        expect(await format(laidOut.text)).toBe(`${laidOut.text}\n`);
      }),
      { numRuns: 150 },
    );
    // Most random data is vouched for: the property does not pass by leaving everything to prettier.
    expect(vouched).toBeGreaterThan(100);
  });
});
