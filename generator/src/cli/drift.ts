/**
 * How a generated file on disk differs from what this run generates, in a few lines a person
 * reads in a CI log: the first changed lines, and whether the runtime import (with the banner's
 * regenerate command, which names it) or the banner's command alone is all that differs.
 */
import { runtimeEntryOf } from "@rcp-gen/runtime/codegen-symbols";

/** The first run of changed lines: where it starts (1-based) and what it removes and adds. */
export interface Hunk {
  readonly line: number;
  readonly removed: readonly string[];
  readonly added: readonly string[];
  /** Whether more differences follow it. */
  readonly more: boolean;
}

/** How far past the first difference to look for the two texts to agree again. */
const RESYNC_WINDOW = 200;

export function firstHunk(onDisk: string, generated: string): Hunk | undefined {
  const before = onDisk.split("\n");
  const after = generated.split("\n");
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start += 1;
  if (start === before.length && start === after.length) return undefined;
  // The nearest point where both agree again: fewest lines skipped on both sides together.
  for (let skipped = 1; skipped <= RESYNC_WINDOW; skipped += 1)
    for (let removed = 0; removed <= skipped; removed += 1) {
      const added = skipped - removed;
      const [i, j] = [start + removed, start + added];
      const bothEnd = i === before.length && j === after.length;
      if (bothEnd || (i < before.length && j < after.length && before[i] === after[j]))
        return {
          line: start + 1,
          removed: before.slice(start, i),
          added: after.slice(start, j),
          more: !bothEnd && before.slice(i).join("\n") !== after.slice(j).join("\n"),
        };
    }
  return {
    line: start + 1,
    removed: before.slice(start, start + RESYNC_WINDOW),
    added: after.slice(start, start + RESYNC_WINDOW),
    more: true,
  };
}

/** At most this many removed and as many added lines are shown per file, each cut to LINE_WIDTH. */
const SHOWN_LINES = 4;
const LINE_WIDTH = 120;

export function renderHunk(hunk: Hunk, indent: string): string[] {
  const cut = (line: string) => (line.length > LINE_WIDTH ? `${line.slice(0, LINE_WIDTH - 1)}…` : line);
  const side = (mark: string, lines: readonly string[]) => [
    ...lines.slice(0, SHOWN_LINES).map((line) => `${indent}${mark} ${cut(line)}`),
    ...(lines.length > SHOWN_LINES ? [`${indent}${mark} … ${lines.length - SHOWN_LINES} more lines`] : []),
  ];
  return [
    `${indent}@@ line ${hunk.line}`,
    ...side("-", hunk.removed),
    ...side("+", hunk.added),
    ...(hunk.more ? [`${indent}… and more changes further down`] : []),
  ];
}

/** The runtime entry (as `--runtime` names it) a generated file imports from: not another generated file. */
export function runtimeImportOf(text: string): string | undefined {
  for (const match of text.matchAll(/^import [^;]*? from "([^"]+)";$/gm))
    if (!match[1]!.startsWith("./")) return runtimeEntryOf(match[1]!);
  return undefined;
}

const bannerCommand = /Regenerate with: ([^"\n]*)/;

/** The command a generated file's banner says regenerates it. */
export function bannerCommandOf(text: string): string | undefined {
  return bannerCommand.exec(text)?.[1];
}

/** The `--runtime` a banner's command names (a shell-quoted word, compared as written). */
function bannerRuntimeOf(text: string): string | undefined {
  return /(?:^| )--runtime (\S+)/.exec(bannerCommandOf(text) ?? "")?.[1];
}

/** Whether the runtime the two texts were generated for differs: in their imports or their banners' `--runtime`. */
export function runtimeDiffers(onDisk: string, generated: string): boolean {
  return (
    runtimeImportOf(onDisk) !== runtimeImportOf(generated) || bannerRuntimeOf(onDisk) !== bannerRuntimeOf(generated)
  );
}

const importStatement = /^import [^;]*? from "([^"]+)";$/gm;

/**
 * Whether the two texts differ only in their runtime import specifiers and the banner's
 * command. Another specifier may sort the imports in another order, and the formatter wrap a
 * longer one, so imports are compared as a set, whitespace aside.
 */
export function onlyRuntimeImportDiffers(onDisk: string, generated: string): boolean {
  const neutral = (text: string) => {
    const imports = [...text.matchAll(importStatement)].map((match) =>
      match[0]
        .replace(/"(?!\.\/)[^"]+";$/, '"<runtime>";')
        .replace(/\s+/g, " ")
        .replace(/,? }/, " }"),
    );
    const rest = text.replace(importStatement, "").replace(bannerCommand, "");
    return `${imports.sort().join("\n")}\n${rest}`;
  };
  return onDisk !== generated && neutral(onDisk) === neutral(generated);
}
