/** `npm start` as a user sees it: the quickstart streams over stdio and HTTP/SSE, then exits 0. */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const QUICKSTART = fileURLToPath(new URL("../../dist/docs/examples/quickstart.js", import.meta.url));

describe("docs/examples/quickstart", () => {
  it("prints each progress frame with partial hits, then the same final hits over both transports", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [QUICKSTART], { timeout: 20_000 });
    const [, stdio, http] = stdout.split(/^== retrieve over /m);
    expect(stdio).toMatch(/^stdio:/);
    expect(http).toMatch(/^HTTP\/SSE:/);
    const stages = (section: string): string[] =>
      [...section.matchAll(/progress +\d+% +(\w+) +partial=\[doc-/g)].map((m) => m[1]!);
    const finalIds = (section: string): string[] => [...section.matchAll(/^ +\d+\. (\S+)/gm)].map((m) => m[1]!);
    for (const section of [stdio!, http!]) {
      expect(stages(section)).toEqual(["recall", "fuse", "rerank", "mmr"]);
      expect(finalIds(section)).toHaveLength(5);
    }
    expect(finalIds(http!)).toEqual(finalIds(stdio!));
  });
});
