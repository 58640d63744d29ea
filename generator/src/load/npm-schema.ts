/**
 * Schemas published as npm packages: `npm:<spec>` wherever a schema folder is named (--schema,
 * `breaking --against`, the settings' `schema`). <spec> is what `npm pack` takes: a name, a
 * name@version or range, a tarball path or URL. npm itself resolves and fetches it, with the
 * user's registries, scopes, auth, proxy and cache, and checks the tarball's integrity; a
 * tarball on disk is read with --offline. rcp-gen unpacks each tarball once, into its cache
 * folder under the tarball's integrity (`RCP_GEN_CACHE_DIR`, else `$XDG_CACHE_HOME/rcp-gen`,
 * else `~/.cache/rcp-gen`). The schema folder inside is the one the package's package.json
 * names under `"rcp-gen": { "schema": ... }`, the settings key a project uses, else the root.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { isNpmSchema, NPM_SCHEMA_PREFIX } from "../cli/schema-location.js";
import { SchemaFolderError } from "./schema-folder-error.js";

/** The local folder a schema location names: a folder (relative to `cwd`), or the schema folder of an npm package. */
export function schemaFolderPath(location: string, cwd = process.cwd()): string {
  return isNpmSchema(location)
    ? npmSchemaFolder(location.slice(NPM_SCHEMA_PREFIX.length), cwd)
    : resolve(cwd, location);
}

/** What `npm pack --json` reports of each package it packed. */
interface Packed {
  id: string;
  filename: string;
  integrity: string;
}

function npmSchemaFolder(spec: string, cwd: string): string {
  const label = `${NPM_SCHEMA_PREFIX}${spec}`;
  const fail = (problem: string) => new SchemaFolderError(label, "", problem);
  if (spec === "") throw fail("names no package (npm:<name>[@<version or range>], or npm:<tarball>)");
  const staging = mkdtempSync(join(tmpdir(), "rcp-gen-npm-"));
  try {
    const offline = existsSync(resolve(cwd, spec)) ? ["--offline"] : [];
    const packed = spawnSync(
      "npm",
      ["pack", spec, "--json", "--ignore-scripts", "--pack-destination", staging, ...offline],
      { cwd, encoding: "utf8", shell: process.platform === "win32" },
    );
    if (packed.error !== undefined) throw fail(`cannot run npm: ${packed.error.message}`);
    if (packed.status !== 0) throw fail(`npm pack failed: ${npmProblem(packed.stderr)}`);
    const [found] = JSON.parse(packed.stdout) as Packed[];
    if (found === undefined) throw fail("npm pack packed nothing");
    const [algorithm, digest] = found.integrity.split("-", 2) as [string, string];
    const root = join(cacheDir(), "npm-schemas", `${algorithm}-${Buffer.from(digest, "base64").toString("hex")}`);
    if (!existsSync(root)) unpack(join(staging, found.filename), root, fail);
    return schemaFolderOf(root, found.id, fail);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

function cacheDir(): string {
  return (
    process.env["RCP_GEN_CACHE_DIR"] || join(process.env["XDG_CACHE_HOME"] || join(homedir(), ".cache"), "rcp-gen")
  );
}

/** Unpacks the tarball's one top folder (npm's `package/`) as `root`, whole or not at all. */
function unpack(tarball: string, root: string, fail: (problem: string) => Error): void {
  mkdirSync(resolve(root, ".."), { recursive: true });
  const unpacking = mkdtempSync(`${root}.unpacking-`);
  try {
    execFileSync("tar", ["-xzf", tarball, "-C", unpacking], { stdio: ["ignore", "ignore", "pipe"] });
    const [top, ...more] = readdirSync(unpacking);
    if (top === undefined || more.length > 0) throw fail("the tarball does not hold one top folder");
    // Another run may have unpacked the same tarball meanwhile: its copy is as good.
    if (!existsSync(root)) renameSync(join(unpacking, top), root);
  } catch (error) {
    throw error instanceof SchemaFolderError ? error : fail(`cannot unpack ${tarball}: ${(error as Error).message}`);
  } finally {
    rmSync(unpacking, { recursive: true, force: true });
  }
}

/** The folder the package's `"rcp-gen": { "schema": ... }` names, inside it, else its root. */
function schemaFolderOf(root: string, id: string, fail: (problem: string) => Error): string {
  const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { "rcp-gen"?: { schema?: unknown } };
  const named = manifest["rcp-gen"]?.schema;
  if (named === undefined) return root;
  if (typeof named !== "string" || relative(root, resolve(root, named)).startsWith(".."))
    throw fail(`${id}'s package.json "rcp-gen".schema must name a folder inside the package`);
  const folder = resolve(root, named);
  if (!existsSync(folder) || !statSync(folder).isDirectory())
    throw fail(
      `${id}'s package.json names the schema folder ${named}, which the package does not hold (is it in "files"?)`,
    );
  return folder;
}

/** npm's error message: its first lines, without the code/errno fields and the log-file notice. */
function npmProblem(stderr: string): string {
  const lines = stderr
    .split("\n")
    .filter((line) => line.startsWith("npm error "))
    .map((line) => line.slice("npm error ".length).trim())
    .filter((line) => line !== "" && !/^(code|errno|syscall|path) |^A complete log/.test(line));
  return lines.slice(0, 2).join("; ") || stderr.trim();
}
