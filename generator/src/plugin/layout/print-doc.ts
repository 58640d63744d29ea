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

const printableAscii = /^[\x20-\x7e]*$/;

/** The least and the most columns a text takes in prettier's count. */
export function textWidth(text: string): { min: number; max: number } {
  if (printableAscii.test(text)) return { min: text.length, max: text.length };
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

/**
 * The commands still to print, top last: a document, its indentation (spaces) and whether it is
 * printed flat. Three parallel stacks rather than an object a command: client.ts of 2,000
 * methods lays out in a third less time, most of it saved in the garbage collector.
 */
class Commands {
  readonly indents: number[] = [];
  readonly flats: boolean[] = [];
  readonly docs: Doc[] = [];

  push(indent: number, flat: boolean, doc: Doc): void {
    this.indents.push(indent);
    this.flats.push(flat);
    this.docs.push(doc);
  }

  /** The contents of an array, first on top. */
  pushParts(indent: number, flat: boolean, parts: readonly Doc[]): void {
    for (let index = parts.length - 1; index >= 0; index -= 1) this.push(indent, flat, parts[index]!);
  }

  get length(): number {
    return this.docs.length;
  }

  pop(): void {
    this.indents.pop();
    this.flats.pop();
    this.docs.pop();
  }
}

/** `doc` laid out at `width` columns (at Infinity, every group not broken by nature is flat). */
export function printDoc(doc: Doc, width: number): PrintedDoc {
  const lines: string[] = [];
  let lineText = "";
  let unvouched: string | undefined;
  const note = (reason: string) => (unvouched ??= reason);
  // The column, in the most and the least columns the line's text may take.
  let column = 0;
  let columnMin = 0;
  let pendingIndent: number | undefined;
  const write = (text: string) => {
    if (text === "") return;
    if (pendingIndent !== undefined) lineText += " ".repeat(pendingIndent);
    pendingIndent = undefined;
    lineText += text;
    if (printableAscii.test(text)) {
      column += text.length;
      columnMin += text.length;
      return;
    }
    const { min, max } = textWidth(text);
    column += max;
    columnMin += min;
  };
  const commands = new Commands();
  commands.push(0, false, doc);
  while (commands.length > 0) {
    const last = commands.length - 1;
    const indent = commands.indents[last]!;
    const flat = commands.flats[last]!;
    const current = commands.docs[last]!;
    commands.pop();
    if (typeof current === "string") {
      write(current);
      continue;
    }
    if (Array.isArray(current)) {
      commands.pushParts(indent, flat, current as readonly Doc[]);
      continue;
    }
    const node = current as Exclude<Doc, string | readonly Doc[]>;
    switch (node.kind) {
      case "indent":
        commands.push(indent + node.spaces, flat, node.contents);
        break;
      case "group": {
        if (flat || node.broken) {
          commands.push(indent, flat && !node.broken, node.contents);
          break;
        }
        const most = fits(node.contents, commands, width - column, "max");
        const least =
          column === columnMin && most.exact ? most : fits(node.contents, commands, width - columnMin, "min");
        if (most.fits !== least.fits) note("a line holding characters of unknown width may or may not fit");
        if (!most.fits && node.unmodelledBreak) note("prettier fills a broken list of numbers");
        commands.push(indent, most.fits, node.contents);
        break;
      }
      case "if-break":
        commands.push(indent, flat, flat ? node.flat : node.broken);
        break;
      case "line":
        if (flat && !node.hard) {
          if (!node.soft) write(" ");
          break;
        }
        // Prettier drops the spaces and tabs that end a line, but for text printed as written.
        lines.push(node.literal ? lineText : lineText.replace(/[ \t]+$/, ""));
        lineText = "";
        pendingIndent = indent;
        column = columnMin = indent;
        break;
      case "unvouched":
        note(node.reason);
        break;
    }
  }
  lines.push(lineText);
  return { text: lines.join("\n"), unvouched };
}

/**
 * Whether `contents`, flat, and the commands after it up to their first line break fit in
 * `remaining` columns (prettier's fits: the rest is measured in its own mode, so the first line
 * of a broken group ends it). `exact`: no character of unknown width was measured.
 */
function fits(
  contents: Doc,
  rest: Commands,
  remaining: number,
  count: "min" | "max",
): { fits: boolean; exact: boolean } {
  const flats: boolean[] = [true];
  const docs: Doc[] = [contents];
  let restIndex = rest.length;
  let exact = true;
  while (remaining >= 0) {
    if (docs.length === 0) {
      if (restIndex === 0) return { fits: true, exact };
      restIndex -= 1;
      flats.push(rest.flats[restIndex]!);
      docs.push(rest.docs[restIndex]!);
    }
    const flat = flats.pop()!;
    const doc = docs.pop()!;
    if (typeof doc === "string") {
      if (printableAscii.test(doc)) {
        remaining -= doc.length;
        continue;
      }
      const { min, max } = textWidth(doc);
      exact &&= min === max;
      remaining -= count === "max" ? max : min;
      continue;
    }
    if (Array.isArray(doc)) {
      const parts = doc as readonly Doc[];
      for (let index = parts.length - 1; index >= 0; index -= 1) {
        flats.push(flat);
        docs.push(parts[index]!);
      }
      continue;
    }
    const node = doc as Exclude<Doc, string | readonly Doc[]>;
    switch (node.kind) {
      case "indent":
        flats.push(flat);
        docs.push(node.contents);
        break;
      case "group":
        flats.push(flat && !node.broken);
        docs.push(node.contents);
        break;
      case "if-break":
        flats.push(flat);
        docs.push(flat ? node.flat : node.broken);
        break;
      case "line":
        if (!flat || node.hard) return { fits: true, exact };
        if (!node.soft) remaining -= 1;
        break;
      case "unvouched":
        break;
    }
  }
  return { fits: false, exact };
}
