/**
 * Schemas as npm packages, against a real registry: verdaccio on 127.0.0.1 (no uplinks, so
 * nothing reaches the internet; its storage, and npm's config and cache, in a temp folder, so
 * the user's ~/.npmrc is never read). `rcp-gen init --schema-package` makes the package; npm
 * publishes v1, then a v2 that breaks deployed peers; `rcp-gen breaking` compares the two by
 * their npm specs and fails with the finding; `rcp-gen --schema npm:@acme/schema@2` generates
 * code that compiles; a tarball on disk is read offline; each tarball is unpacked once, into
 * rcp-gen's cache under its integrity.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../net/free-port.js";
import { repoRoot } from "../generator/run-cli.js";
import { scratchFolder, typecheck } from "../generator/typecheck.js";

const work = mkdtempSync(join(tmpdir(), "rcp-gen-npm-schema-"));
const generatedScratch = scratchFolder("npm-schema-");
const rcpGenCache = join(work, "rcp-gen-cache");
let registry: ChildProcess | undefined;
let environment: NodeJS.ProcessEnv;

interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command with the test's npm settings (and without the npm_* variables of a surrounding `npm test`). */
function run(command: string, args: readonly string[], cwd: string, env = environment): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"], timeout: 120_000 });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

const rcpGen = (args: readonly string[], env = environment) =>
  run(process.execPath, [join(repoRoot, "generator/bin/rcp-gen.js"), ...args], work, env);

function succeeded(ran: Ran): Ran {
  expect(ran.status, `${ran.stdout}\n${ran.stderr}`).toBe(0);
  return ran;
}

beforeAll(async () => {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const config = {
    storage: join(work, "storage"),
    auth: { htpasswd: { file: join(work, "htpasswd"), max_users: 10 } },
    uplinks: {},
    packages: { "**": { access: "$all", publish: "$authenticated" } },
    max_body_size: "20mb",
    web: { enable: false },
    logs: { type: "stdout", format: "pretty", level: "error" },
  };
  // YAML is a superset of JSON: verdaccio reads this as its config file.
  writeFileSync(join(work, "verdaccio.yaml"), JSON.stringify(config));
  registry = spawn(
    join(repoRoot, "node_modules/.bin/verdaccio"),
    ["--config", join(work, "verdaccio.yaml"), "--listen", `127.0.0.1:${port}`],
    { stdio: "ignore" },
  );
  for (let attempt = 0; ; attempt++) {
    try {
      if ((await fetch(`${url}-/ping`)).ok) break;
    } catch (error) {
      if (attempt > 200 || registry.exitCode !== null) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  const signup = await fetch(`${url}-/user/org.couchdb.user:acme`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "acme", password: "acme-test-password" }),
  });
  const { token } = (await signup.json()) as { token: string };
  writeFileSync(join(work, "npmrc"), `registry=${url}\n//127.0.0.1:${port}/:_authToken=${token}\n`);
  environment = {
    ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name))),
    npm_config_userconfig: join(work, "npmrc"),
    npm_config_cache: join(work, "npm-cache"),
    npm_config_update_notifier: "false",
    npm_config_fund: "false",
    npm_config_audit: "false",
    RCP_GEN_CACHE_DIR: rcpGenCache,
  };
}, 60_000);

afterAll(() => {
  registry?.kill();
  rmSync(work, { recursive: true, force: true });
  rmSync(generatedScratch, { recursive: true, force: true });
});

const unpacked = () => readdirSync(join(rcpGenCache, "npm-schemas")).sort();

describe("a schema package published to a registry", () => {
  const pkg = join(work, "acme-schema");

  it("rcp-gen init --schema-package makes a publishable package: files, exports and the rcp-gen key name its schema folder", async () => {
    const made = succeeded(await rcpGen(["init", pkg, "--schema-package", "@acme/schema"]));
    expect(made.stdout).toContain("made the schema package @acme/schema");
    const manifest = JSON.parse(readFileSync(join(pkg, "package.json"), "utf8")) as Record<string, unknown>;
    expect(manifest).toMatchObject({
      name: "@acme/schema",
      version: "1.0.0",
      files: ["schema"],
      exports: { "./schema/*": "./schema/*" },
      "rcp-gen": { schema: "schema" },
    });
    expect(readFileSync(join(pkg, "README.md"), "utf8")).toContain("npx rcp-gen --schema npm:@acme/schema@1");
    succeeded(await run("npm", ["publish"], pkg));
  });

  it("publishes a breaking v2, which rcp-gen breaking --against npm:@acme/schema@1 fails with the finding", async () => {
    const hit = join(pkg, "schema/types/hit.json");
    writeFileSync(hit, JSON.stringify({ ...JSON.parse(readFileSync(hit, "utf8")), required: ["id"] }));
    succeeded(await run("npm", ["version", "2.0.0", "--no-git-tag-version"], pkg));
    succeeded(await run("npm", ["publish"], pkg));

    const breaking = await rcpGen(["breaking", "--schema", "npm:@acme/schema@2", "--against", "npm:@acme/schema@1"]);
    expect(breaking.stdout).toMatch(
      /^BREAKING\s+required-removed\s+types\/hit\.json#\/required\s+"score" is no longer required/m,
    );
    expect(breaking.stdout).toContain("1 breaking change at the wire level, of 1");
    expect(breaking.status).toBe(1);
    // The working copy against the published v2: nothing changed.
    const same = await rcpGen(["breaking", "--schema", join(pkg, "schema"), "--against", "npm:@acme/schema@^2"]);
    expect(same.stdout).toBe("rcp-gen breaking: no changes against npm:@acme/schema@^2\n");
    expect(same.status).toBe(0);
    // Each version unpacked once, under its integrity, however often and by whichever spec it was named.
    expect(unpacked()).toHaveLength(2);
    expect(unpacked().every((name) => /^sha512-[0-9a-f]{128}$/.test(name))).toBe(true);
  });

  it("generates from npm:@acme/schema@2 code that compiles, its banner naming the package", async () => {
    const out = join(generatedScratch, "generated");
    const generated = succeeded(await rcpGen(["--schema", "npm:@acme/schema@2", "--out", out]));
    expect(generated.stdout).toMatch(/wrote 9 files/);
    expect(readFileSync(join(out, "types.ts"), "utf8")).toMatch(
      /^\/\/ Regenerate with: npx rcp-gen --schema npm:@acme\/schema@2 --out \S+$/m,
    );
    writeFileSync(
      join(generatedScratch, "use.ts"),
      'import { connectStdio, type Hit } from "./generated/index.js";\nexport const hit: Hit = { id: "a", score: 1 };\nexport { connectStdio };\n',
    );
    const compiled = typecheck(generatedScratch);
    expect(compiled.output).toBe("");
    expect(compiled.status).toBe(0);
    // Every command that reads a schema folder reads a package the same way (load/npm-schema.ts).
    const linted = await rcpGen(["lint", "--schema", "npm:@acme/schema@2"]);
    expect(linted.stderr).toBe("");
    expect(linted.status).toBe(0);
  });

  it("reads a tarball on disk offline (the registry unreachable), and says what npm could not find", async () => {
    succeeded(await run("npm", ["pack", "@acme/schema@1", "--pack-destination", work], work));
    // No registry to reach: npm must not need one for a tarball on disk.
    const offline = { ...environment, npm_config_registry: "http://127.0.0.1:9/", npm_config_fetch_retries: "0" };
    const fromDisk = await rcpGen(
      ["breaking", "--schema", join(pkg, "schema"), "--against", "npm:./acme-schema-1.0.0.tgz"],
      offline,
    );
    expect(fromDisk.stdout).toContain("1 breaking change at the wire level, of 1");
    expect(fromDisk.status).toBe(1);
    const missing = await rcpGen(["--schema", "npm:@acme/no-such-schema@1", "--out", join(work, "unused")]);
    expect(missing.stderr).toMatch(/^rcp-gen: npm:@acme\/no-such-schema@1: .*npm pack failed: .*404/m);
    expect(missing.status).toBe(2);
  }, 60_000);

  it("reads npm:<spec> from the schema setting, and refuses a package whose rcp-gen key points outside it", async () => {
    const project = join(work, "settings-project");
    mkdirSync(project);
    succeeded(await run("npm", ["pack", "@acme/schema@2", "--pack-destination", project], project));
    const settings = {
      name: "p",
      private: true,
      type: "module",
      "rcp-gen": { schema: "npm:./acme-schema-2.0.0.tgz", out: "gen" },
    };
    writeFileSync(join(project, "package.json"), JSON.stringify(settings));
    const generated = await run(process.execPath, [join(repoRoot, "generator/bin/rcp-gen.js")], project);
    expect(generated.stdout).toMatch(/wrote 9 files/);
    expect(readFileSync(join(project, "gen/types.ts"), "utf8")).toMatch(/^\/\/ Regenerate with: npx rcp-gen$/m);

    const escaping = join(work, "escaping");
    mkdirSync(escaping);
    writeFileSync(
      join(escaping, "package.json"),
      JSON.stringify({ name: "escaping", version: "1.0.0", "rcp-gen": { schema: "../x" } }),
    );
    succeeded(await run("npm", ["pack", "--pack-destination", work], escaping));
    const refused = await rcpGen(["lint", "--schema", "npm:./escaping-1.0.0.tgz"]);
    expect(refused.stderr).toContain(
      `npm:./escaping-1.0.0.tgz: : escaping@1.0.0's package.json "rcp-gen".schema must name a folder inside the package`,
    );
    expect(refused.status).toBe(2);
  }, 60_000);
});
