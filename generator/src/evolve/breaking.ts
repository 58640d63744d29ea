/**
 * `rcp-gen breaking`: compares the schema folder with an older one (a folder or a git ref)
 * and says which changes break deployed peers (wire) or users of the generated code (code).
 * Exit codes: 0 nothing breaks at the chosen level, 1 something does, 2 a usage error.
 */
import { loadSchemaFolder } from "../load/loader.js";
import { oldFolderFor } from "./against.js";
import { compareFolders } from "./compare-folders.js";
import { fails, renderFindings, type Level } from "./report.js";

export interface BreakingOptions {
  /** The new schema folder. */
  readonly schema: string;
  /** The old one: a folder, or a git ref whose copy of `schema` is read. */
  readonly against: string;
  readonly level: Level;
  readonly json: boolean;
  /** Where relative paths and git refs are read from; default: the current folder. */
  readonly cwd?: string;
  readonly write?: (text: string) => void;
}

export function breaking(options: BreakingOptions): number {
  const cwd = options.cwd ?? process.cwd();
  const write = options.write ?? ((text: string) => process.stdout.write(text));
  const old = oldFolderFor(options.against, options.schema, cwd);
  try {
    const findings = compareFolders(loadSchemaFolder(old.dir), loadSchemaFolder(options.schema, cwd));
    const failing = findings.some((finding) => fails(finding, options.level));
    write(
      options.json
        ? `${JSON.stringify({ against: old.label, level: options.level, breaking: failing, findings }, null, 2)}\n`
        : renderFindings(findings, options.level, old.label),
    );
    return failing ? 1 : 0;
  } finally {
    old.dispose();
  }
}
