/**
 * Tools nobody here wrote against `rcp-gen mcp --listen 0 -- <demo engine>`: the MCP
 * Inspector's CLI (`@modelcontextprotocol/inspector-cli`, its positional target the URL) lists
 * the tools and calls retrieve, and lists them over stdio as docs/mcp.md tells a user to; MCP's conformance suite (`@modelcontextprotocol/conformance`,
 * which needs Node 22, so it runs on the Bun this repository installs) passes the scenarios a
 * server with any tools must pass. The others need a tool, resource or prompt of a fixed name
 * (test_simple_text, ...), which an RCP engine has no reason to offer.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify, stripVTControlCharacters } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../generator/run-cli.js";
import { DEMO_TOOLS, startHttpBridge, type HttpBridge } from "./bridge-process.js";

const run = promisify(execFile);
const moduleDir = (path: string) => fileURLToPath(new URL(`../../node_modules/${path}`, import.meta.url));
// The Inspector CLI reads its own package.json through a path relative to the working directory.
const INSPECTOR_DIR = moduleDir("@modelcontextprotocol/inspector-cli/build/");
const CONFORMANCE = moduleDir("@modelcontextprotocol/conformance/dist/index.js");
const BUN = moduleDir(".bin/bun");

const REQUIRED_SCENARIOS = ["server-initialize", "ping", "logging-set-level", "tools-list", "dns-rebinding-protection"];
/** Passes here; the suite counts it as at most a warning. */
const TOLERATED_SCENARIO = "server-sse-multiple-streams";

let bridge: HttpBridge;
beforeAll(async () => {
  bridge = await startHttpBridge();
}, 90_000);
afterAll(() => bridge?.close());

describe("the MCP Inspector CLI 1.0.3", () => {
  const inspector = async (...args: string[]): Promise<unknown> =>
    JSON.parse((await run(process.execPath, ["index.js", bridge.url, ...args], { cwd: INSPECTOR_DIR })).stdout);

  it("lists the tools and calls retrieve", async () => {
    const { tools } = (await inspector("--method", "tools/list")) as { tools: Array<{ name: string }> };
    expect(tools.map((tool) => tool.name)).toContain("retrieve");
    const result = (await inspector(
      "--method",
      "tools/call",
      "--tool-name",
      "retrieve",
      "--tool-arg",
      "query=compost",
      "k=2",
    )) as { isError?: boolean; structuredContent: { hits: unknown[] }; content: Array<{ text: string }> };
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.hits).toHaveLength(2);
    expect(result.content[0]!.text).toMatch(/^retrieve: 2 hits/);
  });

  it("lists the tools over stdio as docs/mcp.md shows it, from the repository with the demo engine", async () => {
    const blocks = [...readFileSync(join(repoRoot, "docs/mcp.md"), "utf8").matchAll(/```sh\n([^`]*)```/g)];
    const block = blocks.map(([, body]) => body!).find((body) => body.includes("inspector-cli/build"));
    // The repository has the CLI installed already; the rest runs as written.
    const script = block!
      .split("\n")
      .filter((line) => !line.startsWith("npm install"))
      .join("\n")
      .replace("dist/server.js", "dist/docs/examples/demo-engine/serve.js");
    const { stdout } = await run("sh", ["-c", script], { cwd: repoRoot });
    const { tools } = JSON.parse(stdout) as { tools: Array<{ name: string }> };
    expect(tools.map((tool) => tool.name).sort()).toEqual(DEMO_TOOLS);
  });
});

describe("MCP's conformance suite 0.1.16 (on Bun)", () => {
  it.each([...REQUIRED_SCENARIOS, TOLERATED_SCENARIO])("%s", async (scenario) => {
    const { stdout } = await run(BUN, [CONFORMANCE, "server", "--url", bridge.url, "--scenario", scenario]).catch(
      (error: { stdout?: string; stderr?: string }) => {
        throw new Error(`conformance ${scenario} failed:\n${error.stdout ?? ""}${error.stderr ?? ""}`);
      },
    );
    const plain = stripVTControlCharacters(stdout);
    expect(plain).toMatch(/Passed: (\d+)\/\1, 0 failed/);
    if (scenario !== TOLERATED_SCENARIO) expect(plain).toContain("0 warnings");
  });
});
