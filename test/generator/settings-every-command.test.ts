/**
 * One settings resolution for every command: with no flags, generate, lint, breaking, conform,
 * mcp and inspect all read the schema folder the project's settings name (here package.json's
 * "rcp-gen" key names rcp/schema, which holds a vendor method x-acme/shout), each showing that
 * method its own way; without settings, ./schema when it holds protocol.json.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { schemaWithShout } from "../fixtures/shout-method.js";
import { startUrlProcess } from "../web/processes.js";
import { cliEntry, repoRoot, runCli, runCliAsync } from "./run-cli.js";
import { entryPath } from "../fixtures/entry.js";

const CLI = cliEntry;
const ENGINE = entryPath("test/fixtures/server/vendor-engine.ts");

const scratch = mkdtempSync(join(tmpdir(), "rcp-gen-every-command-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A project whose schema folder (at `schemaPath`) is RCP/1 plus x-acme/shout, with the given package.json. */
function project(name: string, schemaPath: string, manifest: object): { dir: string; schema: string } {
  const dir = join(scratch, name);
  const schema = schemaWithShout(join(dir, schemaPath));
  writeFileSync(join(dir, "package.json"), JSON.stringify(manifest));
  return { dir, schema };
}

const engine = (schema: string) => ["--", process.execPath, ENGINE, schema];

describe.each([
  ['package.json\'s "rcp-gen" key', "rcp/schema", { type: "module", "rcp-gen": { schema: "rcp/schema", out: "gen" } }],
  ["no settings, a schema/ folder", "schema", { type: "module" }],
])("with %s, no flag names the schema", (name, schemaPath, manifest) => {
  const { dir, schema } = project(name.replace(/\W+/g, "-"), schemaPath, manifest);

  it("generate writes the vendor method's handler type", () => {
    const result = runCli(["--out", "gen", "--quiet"], dir);
    expect(result.stderr).toBe("");
    expect(readFileSync(join(dir, "gen/methods.ts"), "utf8")).toContain('"x-acme/shout"');
  });

  it("lint reads that folder", async () => {
    const result = await runCliAsync(["lint"], dir);
    expect(result.stdout).toContain("methods/x-acme-shout.json#/$defs/result/properties/shout");
    expect(result.stdout).toContain(`in ${schema}`);
  });

  it("breaking compares that folder", async () => {
    const result = await runCliAsync(["breaking", "--against", join(repoRoot, "schema")], dir);
    expect(result.stdout).toContain("method x-acme/shout was added");
    expect(result.status).toBe(0);
  });

  it("conform tests against that folder", async () => {
    const result = await runCliAsync(["conform", "--json", ...engine(schema)], dir);
    expect((JSON.parse(result.stdout) as { schema: string }).schema).toBe(schema);
  });

  it("mcp lists the vendor method as a tool", async () => {
    const [, ...engineCommand] = engine(schema);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, "mcp", "--", ...engineCommand],
      cwd: dir,
      stderr: "pipe",
    });
    const client = new Client({ name: "rcp-gen-tests", version: "0.0.0" });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(["info", "x-acme_shout"]);
      const called = await client.callTool({ name: "x-acme_shout", arguments: { text: "hi" } });
      expect(called.structuredContent).toEqual({ shout: "HI" });
    } finally {
      await client.close();
    }
  });

  it("inspect's schema view has the vendor method, advertised", async () => {
    const inspector = await startUrlProcess(process.execPath, [CLI, "inspect", ...engine(schema)], 40_000, dir);
    try {
      const url = new URL(inspector.url);
      const response = await fetch(`${url.origin}/api/session`, {
        headers: { authorization: `Bearer ${url.searchParams.get("token")}` },
      });
      const session = (await response.json()) as { methods: Array<{ method: string; advertised: boolean }> };
      expect(session.methods.find((method) => method.method === "x-acme/shout")).toMatchObject({ advertised: true });
    } finally {
      await inspector.stop();
    }
  });
});

it("without settings or a schema/ folder, every command reads the RCP/1 schema rcp-gen ships", async () => {
  const dir = join(scratch, "bare");
  mkdirSync(dir);
  writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
  const lint = await runCliAsync(["lint"], dir);
  expect(lint.stdout).toMatch(/in .*generator\/schema\n$/);
  expect(lint.status).toBe(0);
  const generated = runCli(["--out", "gen", "--quiet"], dir);
  expect(generated.stderr).toBe("");
  expect(readFileSync(join(dir, "gen/methods.ts"), "utf8")).toContain('"retrieve"');
});

it("every command's --help says the order in one sentence", async () => {
  const sentence = /default: the "schema" of rcp-gen\.config\.json, else of package\.json's "rcp-gen" key/;
  const helps = await Promise.all(
    ["generate", "lint", "breaking", "conform", "mcp", "inspect", "add method"].map((command) =>
      runCliAsync([...command.split(" "), "--help"]),
    ),
  );
  for (const help of helps) expect(help.stdout.replace(/\s+/g, " ")).toMatch(sentence);
});
