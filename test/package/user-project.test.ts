/**
 * rcp-gen as a user meets it (issue 10): both packages packed and installed from their
 * tarballs into a fresh project outside the repository (their dependencies from the registry,
 * through npm's cache); a vendor method added by editing the schema alone; `npx rcp-gen` with
 * the settings in package.json; strict type-checking that rejects each typed mistake; builds
 * with plain tsc (nodenext, node16), bundler resolution, tsx and an esbuild bundle, each run
 * over stdio and HTTP/SSE; a browser bundle of the generated client; a plain JavaScript project
 * generating `.js` plus `.d.ts` (moduleFormat js), run with node and checked under checkJs; and
 * projects made by `rcp-gen init`: the plain one, whose printed next steps (its own `npm install`
 * from the tarballs, `npm start`) work as printed, passing its own `npm test`; and one made with
 * `--template orama`, passing its own `npm test`, `rcp-gen conform` and `npm start`. One install
 * serves the other cases: the JavaScript project and the orama scaffold link to it.
 */
import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packWorkspaces, repoRoot, run, type Ran, type Tarballs } from "./npm.js";

const work = mkdtempSync(join(tmpdir(), "rcp-gen-user-"));
const app = join(work, "acme-engine");
const fixture = join(repoRoot, "test/package/user-project");
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The tools a user's project installs, at the versions this repository tests with. */
function toolVersions(...tools: string[]): Record<string, string> {
  const ours = (
    JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { devDependencies: Record<string, string> }
  ).devDependencies;
  return Object.fromEntries(tools.map((tool) => [tool, ours[tool]!]));
}

const bin = (tool: string) => join(app, "node_modules", ".bin", tool);

/** `ran`, once it exited 0 (else a failure showing its output). */
function succeeded(ran: Ran): Ran {
  expect(ran.status, `${ran.stdout}\n${ran.stderr}`).toBe(0);
  return ran;
}

let tarballs: Tarballs;
beforeAll(async () => {
  tarballs = await packWorkspaces(work);
  cpSync(fixture, app, { recursive: true });
  const manifest = {
    name: "acme-engine",
    private: true,
    type: "module",
    // @orama/orama: the dependency of the scaffold made with --template orama, which links to this install.
    dependencies: { "@rcp-gen/runtime": `file:${tarballs.runtime}`, ...toolVersions("@orama/orama") },
    devDependencies: {
      "rcp-gen": `file:${tarballs.generator}`,
      ...toolVersions("typescript", "@types/node", "tsx", "esbuild", "vitest", "vite"),
    },
    "rcp-gen": { schema: "schema", out: "src/generated" },
  };
  writeFileSync(join(app, "package.json"), JSON.stringify(manifest, null, 2));
  succeeded(await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund"], app, 240_000));
}, 300_000);

describe("a project installing the packed tarballs", () => {
  it("adds a vendor method by editing its copy of the shipped schema, then npx rcp-gen generates and --check agrees", async () => {
    cpSync(join(app, "node_modules/rcp-gen/schema"), join(app, "schema"), { recursive: true });
    cpSync(join(fixture, "x-acme-echo.json"), join(app, "schema/methods/x-acme-echo.json"));
    const generated = succeeded(await run("npx", ["rcp-gen"], app));
    expect(generated.stdout).toMatch(/wrote 9 files for 18 methods/);
    expect(readFileSync(join(app, "src/generated/client.ts"), "utf8")).toContain("xAcmeEchoStream(");
    expect(succeeded(await run("npx", ["rcp-gen", "--check"], app)).stdout).toMatch(/src\/generated is up to date/);
  });

  it("type-checks strictly (skipLibCheck off) and builds with plain tsc, nodenext, keeping every @ts-expect-error an error", async () => {
    succeeded(await run(bin("tsc"), ["-p", "tsconfig.json"], app));
    expect(readFileSync(join(app, "build/nodenext/generated/validators.js"), "utf8")).toContain("export const message");
  });

  it("rejects each typed mistake for the reason given, and nothing else", async () => {
    const source = readFileSync(join(app, "src/type-errors.ts"), "utf8").replaceAll("// @ts-expect-error", "// was:");
    writeFileSync(join(app, "src/type-errors-unmarked.ts"), source);
    const ran = await run(bin("tsc"), ["-p", "tsconfig.bundler.json"], app);
    rmSync(join(app, "src/type-errors-unmarked.ts"));
    const lineOf = (name: string) => source.split("\n").findIndex((line) => line.includes(` ${name} =`)) + 1;
    const reasons: Record<string, RegExp> = {
      missingHandler: /TS2322: .*\n.*Property '"x-acme\/echo"' is missing/,
      misspeltCapability: /TS2322: Type '\{\}' is not assignable to type 'never'/,
      wrongYield: /TS2322: [\s\S]*?The types of 'partial\.word' are incompatible/,
      wrongReturn: /TS2322: [\s\S]*?Types of property 'echo' are incompatible/,
      wrongParam: /TS2322: Type 'number' is not assignable to type 'string'/,
      methodTypo: /TS2551: .*Did you mean 'xAcmeEcho'\?/,
    };
    const errors = ran.stdout.split(/^(?=src\/)/m).filter((error) => error.startsWith("src/type-errors-unmarked.ts("));
    expect(errors.map((error) => Number(/^[^(]+\((\d+),/.exec(error)?.[1]))).toEqual(Object.keys(reasons).map(lineOf));
    for (const [name, reason] of Object.entries(reasons))
      expect(errors.find((error) => error.includes(`(${lineOf(name)},`))).toMatch(reason);
    expect(ran.stdout.split(/^(?=src\/)/m).filter((error) => !error.includes("type-errors-unmarked"))).toEqual([]);
  });

  it("builds with node16 too, type-checks with moduleResolution bundler, bundles the server with esbuild, and the client for browsers", async () => {
    succeeded(await run(bin("tsc"), ["-p", "tsconfig.node16.json"], app));
    succeeded(await run(bin("tsc"), ["-p", "tsconfig.bundler.json"], app));
    const esbuild = [
      "src/server.ts",
      "--bundle",
      "--platform=node",
      "--format=esm",
      "--outfile=bundle/server.js",
      "--log-level=warning",
    ];
    succeeded(await run(bin("esbuild"), esbuild, app));
    // A browser has no Node modules: esbuild refuses to bundle one for platform=browser.
    const browser = [
      "src/generated/client.ts",
      "--bundle",
      "--platform=browser",
      "--format=esm",
      "--outfile=bundle/browser.js",
    ];
    succeeded(await run(bin("esbuild"), [...browser, "--log-level=warning"], app));
  });

  /** What client.ts prints for one transport: the retrieve stream, then the vendor method's. */
  const transcript = (transport: string) =>
    [
      "progress recall 3",
      "result d1,d0",
      "progress typed",
      "progress all",
      "progress the",
      "progress way",
      "result typed all the way",
    ].map((line) => `${transport} ${line}`);
  const bothTransports = [...transcript("stdio"), ...transcript("http"), ""].join("\n");

  it.each([
    ["plain tsc (nodenext)", "node", ["build/nodenext/client.js", "node", "build/nodenext/server.js"]],
    ["plain tsc (node16), against the esbuild bundle", "node", ["build/node16/client.js", "node", "bundle/server.js"]],
    ["tsx, straight from the TypeScript sources", bin("tsx"), ["src/client.ts", bin("tsx"), "src/server.ts"]],
  ])("%s: progress frames, then the result, over stdio and HTTP/SSE", async (_setup, command, args) => {
    const ran = succeeded(await run(command, args, app, 60_000));
    expect(ran.stdout).toBe(bothTransports);
    expect(ran.stderr).toBe("");
  });
});

describe("a plain JavaScript project with moduleFormat js (no TypeScript in its build)", () => {
  const plain = join(work, "plain-js");
  const tsc = join(repoRoot, "node_modules", ".bin", "tsc");

  it("npx rcp-gen writes .js plus .d.ts, --check agrees, and its client streams retrieve from its server over stdio", async () => {
    cpSync(join(repoRoot, "test/package/js-project"), plain, { recursive: true });
    const manifest = {
      name: "plain-js",
      private: true,
      type: "module",
      "rcp-gen": { schema: "node_modules/rcp-gen/schema", out: "src/generated", moduleFormat: "js" },
    };
    writeFileSync(join(plain, "package.json"), JSON.stringify(manifest, null, 2));
    // The one shared install stands in for this project's own: the same packages.
    symlinkSync(join(app, "node_modules"), join(plain, "node_modules"), "dir");
    expect(succeeded(await run("npx", ["rcp-gen"], plain)).stdout).toMatch(/wrote 16 files for 17 methods/);
    expect(readdirSync(join(plain, "src/generated")).filter((file) => /(?<!\.d)\.ts$/.test(file))).toEqual([]);
    expect(succeeded(await run("npx", ["rcp-gen", "--check"], plain)).stdout).toMatch(/src\/generated is up to date/);
    const ran = succeeded(await run("node", ["src/client.js"], plain, 60_000));
    expect(ran.stdout).toBe("progress recall 3\nresult d1,d0\n");
    expect(ran.stderr).toBe("");
    const browser = [
      "src/generated/client.js",
      "--bundle",
      "--platform=browser",
      "--format=esm",
      "--outfile=bundle.js",
    ];
    succeeded(await run(bin("esbuild"), [...browser, "--log-level=warning"], plain));
  }, 180_000);

  it("type-checks under checkJs against the generated .d.ts, and the same check rejects each marked mistake", async () => {
    succeeded(await run(tsc, ["-p", "jsconfig.json"], plain));
    const source = readFileSync(join(plain, "mistakes/type-errors.js"), "utf8").split("\n");
    const marked = source.flatMap((line, index) => {
      const code = /\/\/ mistake: (TS\d+)$/.exec(line)?.[1];
      return code === undefined ? [] : [`mistakes/type-errors.js:${index + 1} ${code}`];
    });
    const ran = await run(tsc, ["-p", "jsconfig.mistakes.json"], plain);
    const errors = [...ran.stdout.matchAll(/^(\S+)\((\d+),\d+\): error (TS\d+)/gm)];
    expect(errors.map(([, file, line, code]) => `${file}:${line} ${code}`)).toEqual(marked);
    expect(marked).toHaveLength(3);
  });
});

describe("a project made by rcp-gen init", () => {
  const scaffold = join(work, "my-engine");

  it("names the tarballs rcp-gen was installed from, and its next steps (npm install, npm start) work as printed", async () => {
    const init = succeeded(await run("npx", ["rcp-gen", "init", scaffold], app));
    const lines = init.stdout.trim().split("\n");
    expect(lines.slice(1)).toEqual([
      `rcp-gen: its package.json installs rcp-gen from file:../${basename(tarballs.generator)} and @rcp-gen/runtime from file:../${basename(tarballs.runtime)}, as this rcp-gen was installed (not from the registry)`,
      "next: cd ../my-engine && npm install && npm start",
    ]);
    // The printed line, run by a shell from where init ran; npm's cache answers for the registry.
    const next = lines.at(-1)!.slice("next: ".length);
    const cache = { npm_config_prefer_offline: "true", npm_config_audit: "false", npm_config_fund: "false" };
    const started = succeeded(await run("sh", ["-c", next], app, 300_000, cache));
    const section = (transport: string) => [
      `== ${transport}: retrieve "compost for tomato seedlings"`,
      "  progress 0.5 recall: 3 of 5 match",
      "  progress 0.9 rank: kept the best 3",
      "  result: doc-1, doc-3, doc-5",
      "  x-example/lookup doc-1: Compost feeds tomato seedlings in a raised bed.",
    ];
    expect(started.stdout.trim().split("\n").slice(-10)).toEqual([...section("stdio"), ...section("HTTP/SSE")]);
  }, 360_000); // a whole npm install of the scaffold, then its build

  it("npm run dev serves, then regenerates, rebuilds and serves again when a method is added to the schema", async () => {
    const dev = spawn("npm", ["run", "dev", "--", "--port", "0"], {
      cwd: scaffold,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    dev.stdout.setEncoding("utf8").on("data", (text: string) => (output += text));
    dev.stderr.setEncoding("utf8").on("data", (text: string) => (output += text));
    const urls = () => output.match(/^http:\/\/127\.0\.0\.1:\d+\/rcp$/gm) ?? [];
    const until = async (condition: () => boolean, what: string) => {
      for (const deadline = Date.now() + 60_000; !condition(); await new Promise((r) => setTimeout(r, 100)))
        if (Date.now() > deadline) throw new Error(`npm run dev: no ${what} within 60 s:\n${output}`);
    };
    try {
      await until(() => urls().length === 1, "URL");
      succeeded(await run("npx", ["rcp-gen", "add", "method", "x-acme/summarize"], scaffold));
      await until(() => urls().length >= 2, "URL after the schema edit");
      expect(readFileSync(join(scaffold, "src/generated/methods.ts"), "utf8")).toContain('"x-acme/summarize"');
      expect(readFileSync(join(scaffold, "dist/generated/methods.js"), "utf8")).toContain('"x-acme/summarize"');
      const answered = await fetch(`${urls().at(-1)!}/ping`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
      });
      expect(answered.status).toBe(200);
    } finally {
      process.kill(-dev.pid!, "SIGTERM");
    }
  }, 180_000); // two builds of the scaffold

  it("passes its own npm test", async () => {
    const tested = succeeded(await run("npm", ["test"], scaffold));
    const summary = stripVTControlCharacters(tested.stdout);
    // Its frame tests, and the conformance suite at its declared L0 through describeConformance.
    expect(summary).toMatch(/Test Files +2 passed \(2\)/);
    expect(summary).toMatch(/Tests +\d{3} passed \| \d+ skipped \(\d+\)/);
  }, 90_000); // npm test builds the project, then runs the conformance suite against it
});

describe("a project made by rcp-gen init --template orama", () => {
  const scaffold = join(work, "orama-engine");

  it("builds and passes its own npm test: its frame tests, and the conformance suite at its declared L2", async () => {
    succeeded(await run("npx", ["rcp-gen", "init", scaffold, "--template", "orama"], app));
    symlinkSync(join(app, "node_modules"), join(scaffold, "node_modules"), "dir");
    const tested = stripVTControlCharacters(succeeded(await run("npm", ["test"], scaffold)).stdout);
    expect(tested).toMatch(/Test Files +2 passed \(2\)/);
    expect(tested).toMatch(/Tests +\d{3} passed \| \d+ skipped \(\d+\)/);
  }, 120_000);

  it("is certified L2 by rcp-gen conform", async () => {
    const conform = await run(
      "npx",
      ["rcp-gen", "conform", "--json", "--", process.execPath, "dist/server.js", "--stdio"],
      scaffold,
    );
    expect(JSON.parse(conform.stdout)).toMatchObject({
      declaredLevel: "L2",
      certifiedLevel: "L2",
      declarationHolds: true,
    });
    expect(conform.status).toBe(0);
  }, 60_000);

  it("npm start streams each Orama search's hits, then the result, over stdio and HTTP/SSE", async () => {
    const started = succeeded(await run("npm", ["start"], scaffold)).stdout;
    for (const transport of ["stdio", "HTTP/SSE"])
      expect(started).toContain(
        [
          `== ${transport}: retrieve "compost for tomato seedlings"`,
          "  progress 0.3333333333333333 sparse: sparse search: 3 hits",
          "  progress 0.6666666666666666 dense: dense search: 3 hits",
          "  result: doc-1, doc-3, doc-6",
        ].join("\n"),
      );
  }, 60_000);
});
