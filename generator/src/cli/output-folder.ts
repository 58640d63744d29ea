/**
 * Writing generated files all at once (staged in a sibling temp folder, then swapped in, so
 * a failure leaves the previous output untouched) and comparing them with what is on disk.
 */
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { bannerMark } from "../plugin/banner.js";
import {
  bannerCommandOf,
  firstHunk,
  onlyRuntimeImportDiffers,
  runtimeDiffers,
  runtimeImportOf,
  type Hunk,
} from "./drift.js";

export class OutputFolderError extends Error {
  override name = "OutputFolderError";
}

export function writeOutputFolder(outDir: string, files: ReadonlyMap<string, string>): void {
  const target = resolve(outDir);
  refuseForeignFiles(target, files);
  let staging: string;
  try {
    mkdirSync(dirname(target), { recursive: true });
    staging = mkdtempSync(join(dirname(target), `.${basename(target)}.rcp-gen-`));
    chmodSync(staging, 0o755);
    for (const [name, content] of files) {
      mkdirSync(dirname(join(staging, name)), { recursive: true });
      writeFileSync(join(staging, name), content);
    }
  } catch (error) {
    throw new OutputFolderError(`cannot write ${outDir}: ${(error as Error).message}`);
  }
  const previous = existsSync(target) ? `${staging}.previous` : undefined;
  try {
    if (previous) renameSync(target, previous);
    renameSync(staging, target);
  } catch (error) {
    if (previous && !existsSync(target)) renameSync(previous, target);
    rmSync(staging, { recursive: true, force: true });
    throw new OutputFolderError(`cannot replace ${outDir}: ${(error as Error).message}`);
  }
  if (previous) rmSync(previous, { recursive: true, force: true });
}

export interface OutputDifference {
  file: string;
  state: "differs" | "missing" | "unexpected";
  /** For `differs`: the first changed lines. */
  hunk?: Hunk;
  /**
   * For `differs`, when only the runtime import (and the banner's regenerate command, which
   * names it) differs: the runtime import on disk and generated, if the file has one.
   */
  runtimeImport?: { onDisk: string | undefined; generated: string | undefined };
  /** For `differs`, when only the banner's regenerate command differs: the command on disk and generated. */
  bannerCommand?: { onDisk: string | undefined; generated: string | undefined };
}

/** What differs between `outDir` and `files`; empty when the folder is up to date. */
export function compareOutputFolder(outDir: string, files: ReadonlyMap<string, string>): OutputDifference[] {
  const present = existsSync(outDir) ? filesIn(outDir) : [];
  const differences: OutputDifference[] = [];
  for (const [file, content] of files) {
    if (!present.includes(file)) {
      differences.push({ file, state: "missing" });
      continue;
    }
    const onDisk = readFileSync(join(outDir, file), "utf8");
    if (onDisk === content) continue;
    const banner = onlyRuntimeImportDiffers(onDisk, content);
    const runtimeImport =
      banner && runtimeDiffers(onDisk, content)
        ? { onDisk: runtimeImportOf(onDisk), generated: runtimeImportOf(content) }
        : undefined;
    const bannerCommand =
      banner && !runtimeImport ? { onDisk: bannerCommandOf(onDisk), generated: bannerCommandOf(content) } : undefined;
    differences.push({
      file,
      state: "differs",
      hunk: firstHunk(onDisk, content),
      ...(runtimeImport && { runtimeImport }),
      ...(bannerCommand && { bannerCommand }),
    });
  }
  for (const file of present) if (!files.has(file)) differences.push({ file, state: "unexpected" });
  return differences;
}

/** The output folder is replaced wholesale, so it must hold nothing but generated files. */
function refuseForeignFiles(target: string, files: ReadonlyMap<string, string>): void {
  const stat = statSync(target, { throwIfNoEntry: false });
  if (!stat) return;
  if (!stat.isDirectory()) throw new OutputFolderError(`${target} exists and is not a folder`);
  const foreign = filesIn(target).filter((name) => !files.has(name) && !carriesBanner(join(target, name)));
  if (foreign.length > 0)
    throw new OutputFolderError(
      `${target} holds files rcp-gen did not write (${foreign.join(", ")}); it replaces the whole folder, so point --out at an empty or generated folder`,
    );
}

/** Every file under `dir`, as sorted posix paths relative to it (`docs/retrieve.md`). */
function filesIn(dir: string, prefix = ""): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true })
    .flatMap((entry) => {
      const path = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
      return entry.isDirectory() ? filesIn(dir, path) : [path];
    })
    .sort();
}

/** A file an earlier rcp-gen wrote (one this version no longer emits, e.g. validators.js) may be replaced. */
function carriesBanner(path: string): boolean {
  if (!statSync(path).isFile()) return false;
  const head = Buffer.alloc(256);
  const descriptor = openSync(path, "r");
  try {
    return head.toString("utf8", 0, readSync(descriptor, head, 0, head.length, 0)).includes(bannerMark);
  } finally {
    closeSync(descriptor);
  }
}
