/**
 * Cursor pagination on the client (§10): the same request repeated with `cursor` set to the
 * previous page's `nextCursor` until a page carries none. Which param and result member hold
 * the cursor comes from the method's descriptor (`x-rcp` `pagination`), never from code.
 */
import type { JsonObject } from "../protocol/types.js";
import type { Pagination } from "../protocol/descriptor.js";
import { setPath } from "../protocol/dotted-paths.js";

/** Calls one page; the caller decides the call options, the same for every page. */
export type PageCall<Result> = (params: JsonObject) => Promise<Result>;

/**
 * Yields each page's result, fetching the next one only when asked for it (a `break` sends
 * nothing more). A cursor the server already handed out would loop forever: that ends the
 * iteration with `repeated(cursor)`, the caller's error.
 */
export async function* followCursors<Result>(
  call: PageCall<Result>,
  params: JsonObject | undefined,
  pagination: Pagination,
  repeated: (cursor: string) => Error,
): AsyncGenerator<Result, void, undefined> {
  const seen = new Set<string>();
  let page: JsonObject = { ...params };
  for (;;) {
    const result = await call(page);
    yield result;
    const next = (result as JsonObject | undefined)?.[pagination.nextCursor];
    if (typeof next !== "string" || next === "") return;
    if (seen.has(next)) throw repeated(next);
    seen.add(next);
    page = structuredClone(page);
    setPath(page, pagination.cursor, next);
  }
}
