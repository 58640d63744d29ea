/**
 * Lays a document (doc.ts) out at a print width the way prettier's printDocToString does: a
 * group is flat when its flat text, and what follows it up to the next possible line break, fits
 * in the rest of the line; otherwise its lines break and the groups inside decide for
 * themselves. A newline trims the spaces before it, as prettier does; indentation is in spaces.
 *
 * Widths are prettier's (getStringWidth) where they can be known without its Unicode tables:
 * ASCII, control characters (0), combining marks (0) and the letters below U+1100 (1). Wider or
 * emoji characters count from 0 to 2; a decision that depends on which is reported, and the
 * file goes to prettier.
 */
import type { Doc } from "./doc.js";

export interface PrintedDoc {
  readonly text: string;
  /** Why prettier could lay this text out differently (the file then goes to prettier), or undefined. */
  readonly unvouched: string | undefined;
}

type Mode = "flat" | "break";

interface Command {
  /** Spaces at the start of the lines it breaks. */
  readonly indent: number;
  readonly mode: Mode;
  readonly doc: Doc;
}

/** The least and the most columns a text takes in prettier's count. */
export function textWidth(text: string): { min: number; max: number } {
  if (/^[\x20-\x7e]*$/.test(text)) return { min: text.length, max: text.length };
  let min = 0;
  let max = 0;
  for (const character of text) {
    const code = character.codePointAt(0)!;
    const exact = code < 0x20 || (code >= 0x7f && code <= 0x9f) || (code >= 0x300 && code <= 0x36f) ? 0 : 1;
    // From U+1100 on, and for the two emoji below it, East Asian width and emoji decide.
    const known = code < 0x1100 && code !== 0xa9 && code !== 0xae;
    min += known ? exact : 0;
    max += known ? exact : 2;
  }
  return { min, max };
}

/** `doc` laid out at `width` columns (at Infinity, every group not broken by nature is flat). */
export function printDoc(doc: Doc, width: number): PrintedDoc {
  const out: string[] = [];
  let unvouched: string | undefined;
  const note = (reason: string) => (unvouched ??= reason);
  // The column, in the most and the least columns the line's text may take.
  let column = 0;
  let columnMin = 0;
  let pendingIndent: number | undefined;
  const write = (text: string) => {
    if (text === "") return;
    if (pendingIndent !== undefined) out.push(" ".repeat(pendingIndent));
    pendingIndent = undefined;
    out.push(text);
    const { min, max } = textWidth(text);
    column += max;
    columnMin += min;
  };
  const commands: Command[] = [{ indent: 0, mode: "break", doc }];
  while (commands.length > 0) {
    const { indent, mode, doc: current } = commands.pop()!;
    if (typeof current === "string") {
      write(current);
      continue;
    }
    if (Array.isArray(current)) {
      const parts = current as readonly Doc[];
      for (let index = parts.length - 1; index >= 0; index -= 1) commands.push({ indent, mode, doc: parts[index]! });
      continue;
    }
    const node = current as Exclude<Doc, string | readonly Doc[]>;
    switch (node.kind) {
      case "indent":
        commands.push({ indent: indent + node.spaces, mode, doc: node.contents });
        break;
      case "group": {
        if (mode === "flat") {
          commands.push({ indent, mode: node.broken ? "break" : "flat", doc: node.contents });
          break;
        }
        const next: Command = { indent, mode: "flat", doc: node.contents };
        let fitsFlat = false;
        if (!node.broken) {
          const most = fits(next, commands, width - column, "max");
          const least = column === columnMin && most.exact ? most : fits(next, commands, width - columnMin, "min");
          if (most.fits !== least.fits) note("a line holding characters of unknown width may or may not fit");
          fitsFlat = most.fits;
        }
        if (!fitsFlat && node.unmodelledBreak) note("prettier fills a broken list of numbers");
        commands.push(fitsFlat ? next : { indent, mode: "break", doc: node.contents });
        break;
      }
      case "if-break":
        commands.push({ indent, mode, doc: mode === "break" ? node.broken : node.flat });
        break;
      case "line":
        if (mode === "flat" && !node.hard) {
          if (!node.soft) write(" ");
          break;
        }
        if (!node.literal) trimEnd(out);
        out.push("\n");
        pendingIndent = indent;
        column = columnMin = indent;
        break;
      case "unvouched":
        note(node.reason);
        break;
    }
  }
  return { text: out.join(""), unvouched };
}

/**
 * Whether `next`, flat, and the commands after it up to their first line break fit in
 * `remaining` columns (prettier's fits: the rest is measured in its own mode, so the first line
 * of a broken group ends it). `exact`: no character of unknown width was measured.
 */
function fits(
  next: Command,
  rest: readonly Command[],
  remaining: number,
  count: "min" | "max",
): { fits: boolean; exact: boolean } {
  const stack: Pick<Command, "mode" | "doc">[] = [next];
  let restIndex = rest.length;
  let exact = true;
  while (remaining >= 0) {
    const command = stack.pop() ?? (restIndex > 0 ? rest[--restIndex] : undefined);
    if (command === undefined) return { fits: true, exact };
    const { mode, doc } = command;
    if (typeof doc === "string") {
      const { min, max } = textWidth(doc);
      exact &&= min === max;
      remaining -= count === "max" ? max : min;
      continue;
    }
    if (Array.isArray(doc)) {
      const parts = doc as readonly Doc[];
      for (let index = parts.length - 1; index >= 0; index -= 1) stack.push({ mode, doc: parts[index]! });
      continue;
    }
    const node = doc as Exclude<Doc, string | readonly Doc[]>;
    switch (node.kind) {
      case "indent":
        stack.push({ mode, doc: node.contents });
        break;
      case "group":
        stack.push({ mode: node.broken ? "break" : mode, doc: node.contents });
        break;
      case "if-break":
        stack.push({ mode, doc: mode === "break" ? node.broken : node.flat });
        break;
      case "line":
        if (mode === "break" || node.hard) return { fits: true, exact };
        if (!node.soft) remaining -= 1;
        break;
      case "unvouched":
        break;
    }
  }
  return { fits: false, exact };
}

/** Drops the spaces and tabs that end the output, as prettier does before each newline. */
function trimEnd(out: string[]): void {
  while (out.length > 0) {
    const last = out[out.length - 1]!;
    const trimmed = last.replace(/[ \t]+$/, "");
    if (trimmed !== "") {
      out[out.length - 1] = trimmed;
      return;
    }
    out.pop();
  }
}
