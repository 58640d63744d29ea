/**
 * The old schema folder of `rcp-gen breaking --against`: a folder as it is, a published package
 * (`npm:<spec>`, load/npm-schema.ts), or a git ref, whose copy of the schema folder (the same
 * path inside the repository) is written to a temp folder by `git archive`, so the loader
 * reads it like any folder.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { isNpmSchema } from "../cli/schema-location.js";
import { schemaFolderPath } from "../load/npm-schema.js";

/** `--against` names neither a folder nor a commit holding the schema folder. */
export class AgainstError extends Error {
  override name = "AgainstError";
  constructor(
    message: string,
    /** What to give --against instead, when that is the fix. */
    readonly hint?: string,
  ) {
    super(message);
  }
}

const folderInstead = "give a folder holding the old schema: --against old-schema/";

export interface OldFolder {
  readonly dir: string;
  /** How the report names it: the folder, or `<ref>:<path>`. */
  readonly label: string;
  /** Removes the temp copy, if one was made. */
  dispose(): void;
}

export function oldFolderFor(against: string, schemaDir: string, cwd: string): OldFolder {
  if (isNpmSchema(against)) return { dir: schemaFolderPath(against, cwd), label: against, dispose: () => {} };
  const asFolder = resolve(cwd, against);
  if (existsSync(asFolder) && statSync(asFolder).isDirectory())
    return { dir: asFolder, label: against, dispose: () => {} };
  const schema = resolve(cwd, schemaDir);
  if (!existsSync(schema))
    throw new AgainstError(`the schema folder ${schemaDir} does not exist, so no git ref can be read for it`);
  const git = (args: string[]) => spawnSync("git", args, { cwd: schema, encoding: "utf8" });
  const [prefix, top] = [git(["rev-parse", "--show-prefix"]), git(["rev-parse", "--show-toplevel"])];
  if (prefix.status !== 0 || top.status !== 0)
    throw new AgainstError(
      `${against} is not a folder, and ${schemaDir} is not inside a git repository`,
      folderInstead,
    );
  const commit = git(["rev-parse", "--verify", "--quiet", `${against}^{commit}`]);
  if (commit.status !== 0)
    throw new AgainstError(
      `${against} is neither a folder nor a git commit`,
      `compare with a commit here (--against HEAD~1), a tag (--against v1.0.0), or ${folderInstead.replace("give ", "")}`,
    );
  const path = prefix.stdout.trim().replace(/\/$/, "");
  return archivedFolder(top.stdout.trim(), commit.stdout.trim(), path, `${against}:${path}`);
}

/** The folder at `path` of `commit` in the repository at `top` (its top folder: git archive run lower archives only what lies below), written to a temp folder. */
export function archivedFolder(top: string, commit: string, path: string, label: string): OldFolder {
  const tree = spawnSync("git", ["rev-parse", "--verify", "--quiet", `${commit}:${path}`], {
    cwd: top,
    encoding: "utf8",
  });
  if (tree.status !== 0) throw new AgainstError(`${label} does not exist`);
  const dir = mkdtempSync(join(tmpdir(), "rcp-gen-against-"));
  try {
    const archive = execFileSync("git", ["archive", "--format=tar", tree.stdout.trim()], {
      cwd: top,
      maxBuffer: 1 << 28,
    });
    execFileSync("tar", ["-x", "-C", dir], { input: archive });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw new AgainstError(`cannot read ${label}: ${(error as Error).message.split("\n")[0]}`);
  }
  return {
    dir,
    label,
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}
