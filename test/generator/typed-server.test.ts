import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { scratchFolder, typecheck } from "./typecheck.js";

/**
 * Every `@ts-expect-error` below must meet an error, and nothing else may fail: tsc exits 0
 * only when advertising a capability without its handlers, and typos, fail to compile.
 */
const program = `
import { createServer, RcpClient, type Hit, type RcpMethods, type RetrieveResult } from "../../generated/index.js";
import { createMemoryTransportPair } from "../../runtime/src/client/index.js";

const base = { info: { name: "typed", version: "1.0.0" }, conformance: "L1" } as const;

createServer({
  ...base,
  capabilities: { retrieve: { modes: ["dense"], maxK: 10 } },
  // @ts-expect-error retrieve is advertised (§6), so its handler is required
  handlers: {},
});

createServer({
  ...base,
  capabilities: { retrieve: { modes: ["dense"] } },
  handlers: {
    async *retrieve(params, ctx) {
      ctx.log("info", { query: params.query });
      yield { progress: 0.5, stage: "recall", partial: { hits: [] } };
      return { hits: [{ id: "a", score: 1 }] };
    },
  },
});

// index/add also needs index.writable: a read-only index needs only index/delete.
createServer({
  ...base,
  capabilities: { index: { writable: false } },
  handlers: { "index/delete": (params) => ({ deleted: params.ids.length }) },
});

createServer({
  ...base,
  capabilities: { index: { writable: true } },
  // @ts-expect-error a writable index needs an index/add handler too
  handlers: { "index/delete": (params) => ({ deleted: params.ids.length }) },
});

createServer({
  ...base,
  capabilities: { retrieve: {} },
  handlers: {
    // @ts-expect-error the result must be a RetrieveResult
    retrieve: () => ({ hitz: [] }),
  },
});

// Vendor capability keys are x-<vendor> (§6.2); any other unknown key is a typo.
createServer({
  ...base,
  capabilities: { retrieve: {}, "x-acme": { tier: 2 } },
  handlers: { retrieve: () => ({ hits: [] }) },
});

createServer({
  ...base,
  // @ts-expect-error a misspelt capability key does not compile
  capabilities: { retrieve: {}, retreive: {} },
  handlers: { retrieve: () => ({ hits: [] }) },
});

export async function useClient(client: RcpClient): Promise<Hit[]> {
  // @ts-expect-error closed types: a misspelt param does not compile
  await client.retrieve({ query: "q", k: 3, cadidateK: 5 });
  for await (const event of client.retrieveStream({ query: "q", k: 3 })) {
    if (event.type === "progress") void event.partial?.hits;
    else void (event.result satisfies RetrieveResult);
  }
  await client.indexAdd({ documents: [{ text: "t" }] });
  await client.embedSparse({ texts: ["t"] });
  await client.queryTransform({ query: "q", method: "rewrite" });
  return (await client.retrieve({ query: "q", k: 3 })).hits;
}

// _meta is typed on every params and result (§4.4): a method lacking it would leave its name in the union.
type WithoutMeta = {
  [M in keyof RcpMethods]: "_meta" extends keyof RcpMethods[M]["params"]
    ? "_meta" extends keyof RcpMethods[M]["result"] ? never : M
    : M;
}[keyof RcpMethods];
export const everyShapeHasMeta: [WithoutMeta] extends [never] ? true : WithoutMeta = true;

export const client = new RcpClient({ transport: createMemoryTransportPair().client, clientInfo: { name: "c", version: "1" } });
`;

it("compiles a server only when every advertised capability has its handlers, and rejects typos", () => {
  const dir = scratchFolder("typed-server-");
  try {
    writeFileSync(join(dir, "program.ts"), program);
    const result = typecheck(dir);
    expect(result.output).toBe("");
    expect(result.status).toBe(0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
