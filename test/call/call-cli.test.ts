/**
 * `rcp-gen call` as a user runs it (the built CLI in a child process) against the demo engine
 * and the reference Python server (code nobody here wrote) over stdio and HTTP, and against
 * `rcp-gen mock` for what only a mock can do on demand: a slow call cancelled by Ctrl-C, a
 * vendor method of a folder made here. The result is JSON on stdout, progress and logs on
 * stderr, errors as code, message and data.field, and each outcome has its exit code.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO, startHttpChild, startOnPort, type HttpChild } from "../conform/conform-cli.js";
import { repoRoot } from "../generator/run-cli.js";
import { vendorSchemaFolder } from "../fixtures/mock/vendor-folder.js";
import { announceSkip, PYTHON, reference, referenceDir, referencePresent } from "../interop/reference.js";

/** Each case starts processes (the CLI, an engine, a conformance run): minutes on a loaded machine, not seconds. */
const PROCESS_TIMEOUT_MS = 180_000;
const CLI = join(repoRoot, "generator/bin/rcp-gen.js");
const SCHEMA = join(repoRoot, "schema");

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `rcp-gen call <args>`; `whenStderr` is told each stderr chunk with the child (to signal it). */
function call(
  args: readonly string[],
  options: { stdin?: string; whenStderr?: (text: string, pid: number) => void } = {},
): Promise<Run> {
  const child = spawn(process.execPath, [CLI, "call", "--schema", SCHEMA, ...args], { cwd: repoRoot });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (text: string) => (stdout += text));
  child.stderr.setEncoding("utf8").on("data", (text: string) => {
    stderr += text;
    options.whenStderr?.(stderr, child.pid!);
  });
  child.stdin.end(options.stdin ?? "");
  return new Promise((resolve) => child.once("close", (code) => resolve({ code, stdout, stderr })));
}

const demoStdio = ["--", ...DEMO, "--stdio"];

describe("rcp-gen call: the demo engine", { timeout: PROCESS_TIMEOUT_MS }, () => {
  let http: HttpChild;
  beforeAll(async () => {
    http = await startHttpChild([...DEMO, "--port", "0"]);
  });
  afterAll(() => http.stop());

  it.each(["stdio", "http"] as const)(
    "over %s: params from flags, the result on stdout, progress on stderr",
    async (transport) => {
      const target = transport === "stdio" ? demoStdio : ["--http", http.url];
      const run = await call(["retrieve", "--query", "compost", "--k", "2", "--progress", ...target]);
      expect(run.code, run.stderr).toBe(0);
      const result = JSON.parse(run.stdout) as { hits: { id: string }[] };
      expect(result.hits).toHaveLength(2);
      expect(run.stderr).toMatch(/^progress \d+% recall: /m);
    },
  );

  it("--list prints the advertised methods with the capability gating each", async () => {
    const run = await call(["--list", "--http", http.url]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^retrieve +capability retrieve$/m);
    expect(run.stdout).toMatch(/^index\/add +capability index, requires index\.writable$/m);
    expect(run.stdout).toMatch(/^ping +always \(no capability\)$/m);
  });

  it("an RCP error prints code, message and data.field, and exits 1", async () => {
    const run = await call(["retrieve", "--query", "compost", "--k", "-1", "--http", http.url]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("error -32602: ");
    expect(run.stderr).toMatch(/^data\.field: k$/m);
    expect(run.stdout).toBe("");
  });

  it("params from --params JSON, from @file and from stdin, with flags on top; dotted flags build objects", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "rcp-call-")), "params.json");
    writeFileSync(file, JSON.stringify({ query: "compost", k: 3 }));
    const fromFile = await call(["retrieve", "--params", `@${file}`, "--k", "1", "--http", http.url]);
    expect((JSON.parse(fromFile.stdout) as { hits: unknown[] }).hits).toHaveLength(1);
    const fromStdin = await call(["retrieve", "-", "--http", http.url], { stdin: '{"query":"compost","k":2}' });
    expect((JSON.parse(fromStdin.stdout) as { hits: unknown[] }).hits).toHaveLength(2);
    const filtered = await call([
      "retrieve",
      '{"query":"compost","k":5}',
      "--filter.field",
      "tag",
      "--filter.op",
      "in",
      "--filter.value",
      '["gardening"]',
      "--http",
      http.url,
    ]);
    expect(filtered.code, filtered.stderr).toBe(0);
    const hits = (JSON.parse(filtered.stdout) as { hits: { meta: { tag: string } }[] }).hits;
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((hit) => hit.meta.tag === "gardening")).toBe(true);
  });

  it("--ndjson prints each progress and log frame as one JSON line on stderr", async () => {
    const run = await call([
      "retrieve",
      "--query",
      "compost",
      "--k",
      "1",
      "--ndjson",
      "--log-level",
      "debug",
      ...demoStdio,
    ]);
    expect(run.code).toBe(0);
    const frames = run.stderr
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { method: string });
    expect(frames.map((frame) => frame.method)).toContain("notifications/progress");
    expect(frames.map((frame) => frame.method)).toContain("notifications/log");
  });

  it("usage mistakes exit 2, an engine that cannot be reached exits 3", async () => {
    const unknown = await call(["no/such", "--http", http.url]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("no/such is not a method of the schema");
    const badType = await call(["retrieve", "--query", "q", "--k", "--http", http.url]);
    expect(badType.code).toBe(2);
    const unreachable = await call(["ping", "--http", "http://127.0.0.1:9/rcp"]);
    expect(unreachable.code).toBe(3);
    expect(unreachable.stderr).toContain("rcp-gen call: the engine did not initialize");
  });

  it("call <method> --help lists the method's flags from its schema", async () => {
    const run = await call(["retrieve", "--help"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Params of retrieve (from its schema):");
    expect(run.stdout).toMatch(/--filter\.op .*\n? *\[string\] \[choices: "eq"/);
    expect(run.stdout).toMatch(/--mode +Retrieval mode/);
  });
});

describe("rcp-gen call: rcp-gen mock on demand", { timeout: PROCESS_TIMEOUT_MS }, () => {
  const mock = ["--", process.execPath, CLI, "mock", "--stdio", "--schema", SCHEMA];

  it("Ctrl-C sends the cancel and waits for the engine's answer (§7.14)", async () => {
    let signalled = false;
    const run = await call(["retrieve", "--query", "q", "--k", "1", "--progress", ...mock, "--stall", "retrieve"], {
      whenStderr: (text, pid) => {
        if (signalled || !text.includes("progress")) return;
        signalled = true;
        process.kill(pid, "SIGINT");
      },
    });
    expect(signalled).toBe(true);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("rcp-gen call: cancelling");
    // The engine's own answer (the runtime's "Cancelled"), not the client's local "Cancelled by the client".
    expect(run.stderr).toMatch(/^error -32006: Cancelled$/m);
  });

  it("--timeout fails a stalled call with -32014", async () => {
    const run = await call([
      "retrieve",
      "--query",
      "q",
      "--k",
      "1",
      "--timeout",
      "300",
      ...mock,
      "--stall",
      "retrieve",
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("error -32014");
  });

  it("calls a vendor method of a folder made here, its flags from its schema, with no code", async () => {
    const folder = vendorSchemaFolder();
    const args = ["--schema", folder, "x-acme/summarize", "--texts", "one", "--texts", "two"];
    const child = spawn(
      process.execPath,
      [CLI, "call", ...args, "--", process.execPath, CLI, "mock", "--stdio", "--schema", folder],
      { cwd: repoRoot },
    );
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (text: string) => (stdout += text));
    const code = await new Promise((resolve) => child.once("close", resolve));
    expect(code).toBe(0);
    expect((JSON.parse(stdout) as { summaries: string[] }).summaries).toHaveLength(2);
    const help = spawn(process.execPath, [CLI, "call", "--schema", folder, "x-acme/summarize", "--help"], {
      cwd: repoRoot,
    });
    let helpText = "";
    help.stdout.setEncoding("utf8").on("data", (text: string) => (helpText += text));
    await new Promise((resolve) => help.once("close", resolve));
    expect(helpText).toMatch(/--texts +Texts to summarize\. \(required\) +\[array\]/);
  });
});

const suite = referencePresent ? describe : describe.skip;
if (!referencePresent) announceSkip();

suite("rcp-gen call: the reference Python server", { timeout: PROCESS_TIMEOUT_MS }, () => {
  let http: HttpChild;
  beforeAll(async () => {
    http = await startOnPort((port) => [PYTHON, reference.pythonExampleServer, "--http", String(port)], referenceDir);
  });
  afterAll(() => http.stop());

  it.each(["stdio", "http"] as const)("over %s: --list, then retrieve", async (transport) => {
    const target = transport === "stdio" ? ["--", PYTHON, reference.pythonExampleServer] : ["--http", http.url];
    const list = await call(["--list", ...target]);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/^retrieve +capability retrieve$/m);
    const run = await call(["retrieve", "--query", "vector databases", "--k", "2", ...target]);
    expect(run.code, run.stderr).toBe(0);
    const hits = (JSON.parse(run.stdout) as { hits: unknown[] }).hits;
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.length).toBeLessThanOrEqual(2);
  });
});

describe("rcp-gen call: the shell examples of docs/testing-a-client.md", { timeout: PROCESS_TIMEOUT_MS }, () => {
  /** The `rcp-gen call` lines of the page's sh blocks that need no engine of the reader's: the mock, or --help. */
  const runnable = [
    ...readFileSync(join(repoRoot, "docs/testing-a-client.md"), "utf8").matchAll(/^```sh\n([\s\S]*?)^```/gm),
  ]
    .flatMap((match) => match[1]!.split("\n"))
    .map((line) => line.replace(/\s+#.*$/, "").trim())
    .filter(
      (line) => line.startsWith("rcp-gen call ") && (line.includes("-- rcp-gen mock") || line.endsWith("--help")),
    );

  it("has such examples", () => expect(runnable.length).toBeGreaterThanOrEqual(2));

  it.each(runnable)("%s", async (line) => {
    const words = line.split(/\s+/).map((word) => (word === "rcp-gen" ? CLI : word));
    // rcp-gen itself is the built CLI, run by this Node.
    const argv = words.flatMap((word) => (word === CLI ? [process.execPath, CLI] : [word]));
    const child = spawn(argv[0]!, argv.slice(1), { cwd: repoRoot });
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (text: string) => (stdout += text));
    const code = await new Promise((resolve) => child.once("close", resolve));
    expect(code).toBe(0);
    expect(stdout.length).toBeGreaterThan(0);
  });
});
