/**
 * A large TypeScript file cut into runs of whole top-level statements, each with the comments
 * that precede it, so that prettier can format the runs apart (and in more than one thread):
 * it prints top-level statements independently of each other. Large generated files (types.ts
 * of a few thousand methods is megabytes) then format in bounded memory instead of as one AST.
 */

/** `text` formatted by `format` a piece of about `size` characters at a time: the same text as formatting it whole. */
export async function formatInPieces(
  text: string,
  size: number,
  format: (piece: string) => Promise<string>,
): Promise<string> {
  const pieces = topLevelChunks(text, size);
  const results = await Promise.all(pieces.map(format));
  // prettier ends a file at its last statement: a blank line that separated two pieces is put back.
  const separatedByBlankLine = (index: number) => index < pieces.length - 1 && /\n[ \t]*\n$/.test(pieces[index]!);
  return results.map((result, index) => (separatedByBlankLine(index) ? `${result}\n` : result)).join("");
}

/** Pieces of about `size` characters (a statement longer than that is one piece) whose concatenation is `text`. */
export function topLevelChunks(text: string, size: number): string[] {
  const chunks: string[] = [];
  let from = 0;
  for (const start of statementStarts(text)) {
    if (start - from < size) continue;
    chunks.push(text.slice(from, start));
    from = start;
  }
  chunks.push(text.slice(from));
  return chunks;
}

/**
 * Offsets of lines that begin a top-level statement or the comments leading into one: outside
 * any bracket, comment, string or template, and after a line that is not itself a comment.
 */
function* statementStarts(text: string): Generator<number> {
  let depth = 0;
  let lineStart = 0;
  let index = 0;
  while (index < text.length) {
    const char = text[index]!;
    if (char === "\n") {
      // A comment is skipped whole below, so the line that just ended holds its end.
      const ended = text.slice(lineStart, index).trim();
      const endedInComment = ended.endsWith("*/") || ended.startsWith("//");
      index += 1;
      lineStart = index;
      if (depth === 0 && !endedInComment && /^(?:\/\*|\/\/|export )/.test(text.slice(index, index + 7))) yield index;
      continue;
    }
    if (char === "/" && text[index + 1] === "*") index = after(text, "*/", index + 2);
    else if (char === "/" && text[index + 1] === "/") index = lineEnd(text, index);
    else if (char === '"' || char === "'") index = afterString(text, char, index + 1);
    else if (char === "`") index = afterTemplate(text, index + 1);
    else {
      if (char === "{" || char === "(" || char === "[") depth += 1;
      else if (char === "}" || char === ")" || char === "]") depth -= 1;
      index += 1;
    }
  }
}

function lineEnd(text: string, from: number): number {
  const at = text.indexOf("\n", from);
  return at === -1 ? text.length : at;
}

function after(text: string, token: string, from: number): number {
  const at = text.indexOf(token, from);
  return at === -1 ? text.length : at + token.length;
}

function afterString(text: string, quote: string, from: number): number {
  for (let index = from; index < text.length; index += 1) {
    if (text[index] === "\\") index += 1;
    else if (text[index] === quote || text[index] === "\n") return index + 1;
  }
  return text.length;
}

/** Past a template literal; its `${...}` parts are skipped whole, nested templates included. */
function afterTemplate(text: string, from: number): number {
  for (let index = from; index < text.length; index += 1) {
    const char = text[index];
    if (char === "\\") index += 1;
    else if (char === "`") return index + 1;
    else if (char === "$" && text[index + 1] === "{") {
      let depth = 1;
      index += 2;
      while (index < text.length && depth > 0) {
        if (text[index] === "`") index = afterTemplate(text, index + 1) - 1;
        else if (text[index] === "{") depth += 1;
        else if (text[index] === "}") depth -= 1;
        index += 1;
      }
      index -= 1;
    }
  }
  return text.length;
}
