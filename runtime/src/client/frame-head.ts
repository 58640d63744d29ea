/**
 * What the start of a frame too large to parse says about it: the top-level `id` (so the
 * call it answers can fail with -32013 and the connection go on) and whether it names a
 * `method` (a notification, safe to drop). Members nested deeper (a hit's `id`) are skipped.
 */
import type { RequestId } from "../protocol/types.js";

export interface FrameHead {
  id?: RequestId;
  hasMethod: boolean;
}

const NUMBER = /^-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?/;

export function readFrameHead(text: string): FrameHead {
  const head: FrameHead = { hasMethod: false };
  let depth = 0;
  /** The top-level member whose value comes next, once its key and colon were read. */
  let member: string | undefined;
  let index = 0;
  while (index < text.length) {
    const char = text[index]!;
    if (char === '"') {
      const end = stringEnd(text, index);
      if (end === -1) break;
      const value = parseLiteral(text.slice(index, end + 1));
      index = end + 1;
      if (depth !== 1) continue;
      if (member === undefined && typeof value === "string" && /^\s*:/.test(text.slice(index, index + 16))) {
        member = value;
        if (member === "method") head.hasMethod = true;
      } else if (member === "id" && typeof value === "string") head.id = value;
      continue;
    }
    const number = depth === 1 && member === "id" ? NUMBER.exec(text.slice(index, index + 32)) : null;
    // A number that runs to the end of the head may be cut short: it is not the id.
    if (number !== null && index + number[0].length < text.length) {
      head.id = Number(number[0]);
      index += number[0].length;
      continue;
    }
    if (char === "{" || char === "[") depth++;
    else if (char === "}" || char === "]") depth--;
    else if (char === "," && depth === 1) member = undefined;
    index++;
  }
  return head;
}

/** Index of the quote closing the string that opens at `start`, or -1 when the head ends first. */
function stringEnd(text: string, start: number): number {
  for (let index = start + 1; index < text.length; index++) {
    if (text[index] === "\\") index++;
    else if (text[index] === '"') return index;
  }
  return -1;
}

function parseLiteral(literal: string): unknown {
  try {
    return JSON.parse(literal);
  } catch {
    return undefined;
  }
}
