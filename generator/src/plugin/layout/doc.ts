/**
 * The layout documents the built-in targets print with: prettier's own model (Wadler's "prettier
 * printer"), reduced to the parts generated code needs. Text never breaks; a group is printed
 * flat (its lines as spaces or nothing) when it fits in what is left of the line, otherwise its
 * lines break; a hard line always breaks and so breaks every group around it. Builders in
 * syntax.ts make the same documents prettier makes for the same code, so print-doc.ts lays out
 * what prettier would (see generated-file.ts for how a file is vouched for).
 */

export type Doc = string | readonly Doc[] | Group | Indent | Line | IfBreak | Unvouched;

export interface Group {
  readonly kind: "group";
  readonly contents: Doc;
  /** Broken whatever the width: holds a hard line, or prettier always breaks it. */
  readonly broken: boolean;
  /** Laid out broken by prettier in a way these documents do not model (fill): a file with it broken goes to prettier. */
  readonly unmodelledBreak: boolean;
}

/** Its lines start `spaces` further in: two for a level of code, other counts to align with the text above. */
export interface Indent {
  readonly kind: "indent";
  readonly contents: Doc;
  readonly spaces: number;
}

export interface Line {
  readonly kind: "line";
  /** Flat: a space, or nothing when soft. */
  readonly soft: boolean;
  readonly hard: boolean;
  /** A hard line that keeps the trailing spaces of the line it ends (text printed as written). */
  readonly literal: boolean;
}

export interface IfBreak {
  readonly kind: "if-break";
  readonly broken: Doc;
  readonly flat: Doc;
}

/** Prints nothing; a file holding it is left to prettier (a construct whose layout these rules cannot vouch for). */
export interface Unvouched {
  readonly kind: "unvouched";
  readonly reason: string;
}

export const line: Line = { kind: "line", soft: false, hard: false, literal: false };
export const softline: Line = { kind: "line", soft: true, hard: false, literal: false };
export const hardline: Line = { kind: "line", soft: false, hard: true, literal: false };
export const literalline: Line = { kind: "line", soft: false, hard: true, literal: true };

export function group(contents: Doc, options: { broken?: boolean; unmodelledBreak?: boolean } = {}): Group {
  return {
    kind: "group",
    contents,
    broken: options.broken === true || hasHardLine(contents),
    unmodelledBreak: options.unmodelledBreak === true,
  };
}

export function indent(contents: Doc): Indent {
  return { kind: "indent", contents, spaces: 2 };
}

export function align(spaces: number, contents: Doc): Indent {
  return { kind: "indent", contents, spaces };
}

export function ifBreak(broken: Doc, flat: Doc = ""): IfBreak {
  return { kind: "if-break", broken, flat };
}

export function unvouched(reason: string): Unvouched {
  return { kind: "unvouched", reason };
}

export function join(separator: Doc, docs: readonly Doc[]): Doc[] {
  return docs.flatMap((doc, index) => (index === 0 ? [doc] : [separator, doc]));
}

/** Text that may hold line breaks, printed as written: each of its lines indented where it is printed. */
export function lines(text: string): Doc {
  return text.includes("\n") ? join(literalline, text.split("\n")) : text;
}

/** Whether `doc` always breaks: prettier's propagateBreaks (a hard line breaks every enclosing group). */
function hasHardLine(doc: Doc): boolean {
  if (typeof doc === "string") return false;
  if (Array.isArray(doc)) return (doc as readonly Doc[]).some(hasHardLine);
  const node = doc as Exclude<Doc, string | readonly Doc[]>;
  switch (node.kind) {
    case "group":
      return node.broken;
    case "indent":
      return hasHardLine(node.contents);
    case "line":
      return node.hard;
    case "if-break":
      return hasHardLine(node.broken) || hasHardLine(node.flat);
    case "unvouched":
      return false;
  }
}
