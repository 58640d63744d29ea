/**
 * This repository's history of schema/: every commit that changed it, compared with its parent
 * by `rcp-gen breaking`'s comparison, each distinct schema folder read from git and loaded once.
 */
import { spawnSync } from "node:child_process";
import { archivedFolder } from "../../generator/src/evolve/against.js";
import { compareFolders } from "../../generator/src/evolve/compare-folders.js";
import { loadSchemaFolder, type LoadedSchemaFolder } from "../../generator/src/load/loader.js";
import { repoRoot } from "./schema-copy.js";

export interface SchemaCommit {
  readonly commit: string;
  readonly subject: string;
  /** `severity rule file#pointer`, sorted; undefined for the commit that created schema/. */
  readonly findings?: readonly string[];
}

function git(...args: string[]): string {
  const result = spawnSync("git", args, { cwd: repoRoot, encoding: "utf8", maxBuffer: 1 << 26 });
  if (result.status !== 0) throw new Error(`git ${args.join(" ")} failed: ${result.stderr.trim()}`);
  return result.stdout.trim();
}

/** Why the history cannot be read, or undefined when it can (a full clone). */
export function historyProblem(): string | undefined {
  const inside = spawnSync("git", ["rev-parse", "--is-shallow-repository"], { cwd: repoRoot, encoding: "utf8" });
  if (inside.status !== 0) return `${repoRoot} is not a git clone: the schema history test needs one`;
  if (inside.stdout.trim() === "true")
    return "this clone is shallow, so schema/'s history is missing: run `git fetch --unshallow` (CI must clone with full history, e.g. actions/checkout fetch-depth: 0)";
  return undefined;
}

/** The tree of schema/ at a commit, or undefined when it has none. */
function schemaTree(commit: string): string | undefined {
  const result = spawnSync("git", ["rev-parse", "--verify", "--quiet", `${commit}:schema`], {
    cwd: repoRoot,
    encoding: "utf8",
  });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

/**
 * Every commit reachable from HEAD whose schema/ differs from its first parent's: the commits
 * that changed it, and merges that changed it beyond what their parents brought.
 */
export function schemaHistory(): SchemaCommit[] {
  const loaded = new Map<string, LoadedSchemaFolder>();
  const load = (commit: string, tree: string): LoadedSchemaFolder => {
    const known = loaded.get(tree);
    if (known) return known;
    const folder = archivedFolder(repoRoot, commit, "schema", `${commit}:schema`);
    try {
      const schema = loadSchemaFolder(folder.dir);
      loaded.set(tree, schema);
      return schema;
    } finally {
      folder.dispose();
    }
  };
  const lines = git("log", "--full-history", "--format=%H %P", "HEAD", "--", "schema").split("\n").filter(Boolean);
  const commits: SchemaCommit[] = [];
  for (const line of lines) {
    const [commit = "", ...parents] = line.split(" ");
    const tree = schemaTree(commit);
    const parentTrees = parents.map(schemaTree);
    if (tree === undefined || parentTrees.includes(tree)) continue;
    const subject = git("log", "-1", "--format=%s", commit);
    const [parent, parentTree] = [parents[0], parentTrees[0]];
    if (parent === undefined || parentTree === undefined) {
      commits.push({ commit, subject });
      continue;
    }
    const findings = compareFolders(load(parent, parentTree), load(commit, tree))
      .map((finding) => `${finding.severity} ${finding.rule} ${finding.file}#${finding.pointer}`)
      .sort();
    commits.push({ commit, subject, findings });
  }
  return commits;
}
