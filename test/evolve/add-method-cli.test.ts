/**
 * `rcp-gen add method <name>` writes a vendor method's file into the project's schema folder
 * (no --schema: the settings name it) that lint passes as written and that generates a typed
 * handler and client method, served and called here; a core, malformed or existing name is
 * refused with exit 2 and one line saying why.
 */
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, expect, it } from "vitest";
import { repoRoot, runCli, runCliAsync } from "../generator/run-cli.js";
import { scratchFolder, typecheck } from "../generator/typecheck.js";

const project = scratchFolder("add-method-cli-");
afterAll(() => rmSync(project, { recursive: true, force: true }));
cpSync(join(repoRoot, "schema"), join(project, "rcp"), { recursive: true });
const runtime = relative(join(project, "gen"), join(repoRoot, "runtime/src/codegen/server.js"));
writeFileSync(
  join(project, "package.json"),
  JSON.stringify({ type: "module", "rcp-gen": { schema: "rcp", out: "gen", runtime } }),
);

const program = `
import { connectMemory, createServer } from "./gen/index.js";

const base = { info: { name: "acme", version: "1.0.0" }, conformance: "L0", capabilities: { "x-acme": {} } } as const;

// @ts-expect-error the x-acme/summarize handler is missing
export const halfBuilt = () => createServer({ ...base, handlers: {} });

export async function summarize(input: string): Promise<string> {
  const server = createServer({
    ...base,
    handlers: { "x-acme/summarize": (params) => ({ output: params.input.toUpperCase() }) },
  });
  const client = await connectMemory(server);
  const { output } = await client.xAcmeSummarize({ input });
  await client.close();
  return output;
}
`;

it("writes a file that lint passes, that generates a typed handler and client method", async () => {
  const added = runCli(["add", "method", "x-acme/summarize"], project);
  expect({ ...added, stdout: added.stdout.split("\n") }).toEqual({
    status: 0,
    stderr: "",
    stdout: [
      "rcp-gen: wrote rcp/methods/x-acme-summarize.json: x-acme/summarize, gated by the x-acme capability",
      'next: fill in its descriptions, params and result; npx rcp-gen generates its handler; advertise "x-acme" in the server\'s capabilities',
      "",
    ],
  });
  const document = JSON.parse(readFileSync(join(project, "rcp/methods/x-acme-summarize.json"), "utf8")) as {
    "x-rcp": object;
    $defs: { params: { properties: object } };
  };
  expect(document["x-rcp"]).toEqual({
    kind: "method",
    method: "x-acme/summarize",
    capability: "x-acme",
    beforeInitialize: false,
    streaming: false,
  });
  expect(Object.keys(document.$defs.params.properties)).toEqual(["input", "_meta"]);

  const linted = await runCliAsync(["lint"], project);
  expect(linted.stdout).toMatch(/^rcp-gen lint: 0 errors, 0 warnings in /);
  expect(linted.status).toBe(0);

  expect(runCli(["--quiet"], project)).toMatchObject({ status: 0, stderr: "" });
  writeFileSync(join(project, "program.ts"), program);
  const checked = typecheck(project);
  expect(checked.output).toBe("");
  const { summarize, halfBuilt } = (await import(pathToFileURL(join(project, "program.ts")).href)) as {
    summarize: (input: string) => Promise<string>;
    halfBuilt: () => unknown;
  };
  expect(halfBuilt).toThrow("createServer: no handler for x-acme/summarize (advertised by x-acme)");
  expect(await summarize("hello")).toBe("HELLO");
}, 120_000); // a tsc run over the generated code

it.each([
  [
    "an existing method",
    "x-acme/summarize",
    "rcp-gen: x-acme/summarize already exists: rcp/methods/x-acme-summarize.json",
  ],
  [
    "a core name",
    "index/add",
    'rcp-gen: "index/add" is a core name, which only a future RCP revision may add (§6.2): name it x-<vendor>/index-add',
  ],
  [
    "a malformed name",
    "x-Acme/Sum",
    'rcp-gen: "x-Acme/Sum" is not a method name: a vendor method is x-<vendor>/<name>, lower case, words joined by -, e.g. x-acme/summarize (§6.2)',
  ],
])("refuses %s, exit 2, writing nothing", async (_what, name, line) => {
  const before = readdirSync(join(project, "rcp/methods"));
  const refused = await runCliAsync(["add", "method", name], project);
  expect(refused.stderr.split("\n")).toEqual([line, "hint: rcp-gen add method --help", ""]);
  expect(refused.status).toBe(2);
  expect(readdirSync(join(project, "rcp/methods"))).toEqual(before);
});

it.each([
  [["add", "methd", "x-acme/sum"], 'rcp-gen: unknown command "methd" (did you mean method?)'],
  [["add", "method"], "rcp-gen: missing arguments: got 0, need at least 1"],
  [["add"], "rcp-gen: add what? rcp-gen add method x-<vendor>/<name>"],
])("a usage mistake exits 2 in one line: %j", async (args, line) => {
  const run = await runCliAsync(args, project);
  expect(run.stderr.split("\n")).toEqual([line, "hint: rcp-gen add --help lists its options", ""]);
  expect(run.status).toBe(2);
});
