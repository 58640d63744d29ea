/**
 * The "Server interceptors and caller identity" example of docs/extension-points.md, run as it is written (its port 8000
 * made 0): the interceptor requiring the index:write scope answers a reader's index/add with
 * -32012 (§15.3), lets a writer's through, and both callers retrieve. The block is taken from
 * the page itself, so the example cannot drift from what runs.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { connectHttp, type RcpClient } from "../../generated/client.js";
import type { RcpServer } from "../../runtime/src/server/create-server-runtime.js";
import { repoRoot } from "../generator/run-cli.js";
import { scratchFolder } from "../generator/typecheck.js";

const scratch = scratchFolder("readme-scope-");
let example: { server: RcpServer; listening: { url: string } };

beforeAll(async () => {
  const readme = readFileSync(join(repoRoot, "docs/extension-points.md"), "utf8");
  const block = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)]
    .map((match) => match[1]!)
    .find((code) => code.includes("const requireWriteScope"));
  expect(block, "the scope example of docs/extension-points.md").toBeDefined();
  const runnable = block!.replaceAll('from "./generated/', 'from "../../generated/').replace("port: 8000", "port: 0");
  const file = join(scratch, "scope-example.ts");
  writeFileSync(file, runnable);
  example = (await import(file)) as typeof example;
});
afterAll(async () => {
  await example?.server.close();
  rmSync(scratch, { recursive: true, force: true });
});

const as = (token: string): Promise<RcpClient> =>
  connectHttp({
    clientInfo: { name: "readme-scope", version: "1.0.0" },
    transport: { url: example.listening.url, headers: { authorization: `Bearer ${token}` } },
  });

it("a reader may retrieve but not write: index/add and index/delete are -32012", async () => {
  const reader = await as("reader-token");
  expect((await reader.retrieve({ query: "compost", k: 1 })).hits[0]!.text).toBe("compost, for reader");
  await expect(reader.indexAdd({ documents: [{ id: "d1", text: "t" }] })).rejects.toMatchObject({
    code: -32012,
    message: "Unauthorized: index/add needs the index:write scope",
  });
  await expect(reader.indexDelete({ ids: ["d1"] })).rejects.toMatchObject({ code: -32012 });
  await reader.close();
});

it("a writer may write; an unknown token is refused before initialize", async () => {
  const writer = await as("writer-token");
  await expect(writer.indexAdd({ documents: [{ id: "d1", text: "t" }] })).resolves.toEqual({ ids: ["d1"] });
  await expect(writer.indexDelete({ ids: ["d1"] })).resolves.toEqual({ deleted: 1 });
  await writer.close();
  await expect(as("stranger")).rejects.toMatchObject({ code: -32012 });
});
