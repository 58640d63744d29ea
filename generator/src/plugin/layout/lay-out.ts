/**
 * A file's text laid out by its documents, and whether that text is what prettier would print.
 * The documents model only the constructs generated code breaks (syntax.ts); everything else is
 * text that prettier leaves on one line as long as the line fits. So the layout is vouched for
 * unless a line of code is wider than the print width (prettier would break something there the
 * documents do not model), the text holds a line terminator prettier rewrites, or the documents
 * themselves could not decide (print-doc.ts).
 */
import type { Doc } from "./doc.js";
import { printDoc, textWidth } from "./print-doc.js";

export interface LaidOut {
  readonly text: string;
  /** Why prettier must lay this file out instead, or undefined when the text is prettier's. */
  readonly unvouched: string | undefined;
}

export function layOut(doc: Doc, printWidth: number): LaidOut {
  const { text, unvouched } = printDoc(doc, printWidth);
  return { text, unvouched: unvouched ?? unvouchedText(text, printWidth) };
}

/** The first reason, in the text itself, that prettier could print it otherwise. */
function unvouchedText(text: string, printWidth: number): string | undefined {
  // Prettier turns CR and CRLF into LF, and U+2028/U+2029 end a // comment.
  if (/[\r\u2028\u2029]/.test(text)) return "a carriage return or Unicode line separator";
  let number = 0;
  for (const line of text.split("\n")) {
    number += 1;
    // Prettier never breaks a comment or a string; other code wider than the line it would break.
    if (isComment(line) || isLoneString(line)) continue;
    if (textWidth(line).max > printWidth) return `line ${number} is wider than ${printWidth} columns`;
  }
  return undefined;
}

function isComment(line: string): boolean {
  return /^\s*(\/\/|\/\*|\*)/.test(line);
}

/** A string literal alone on its line (a long value moved under its key), with its comma. */
function isLoneString(line: string): boolean {
  return /^\s*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'),?$/.test(line);
}
