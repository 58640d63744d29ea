/**
 * The generated client in a browser bundle (esbuild, platform browser, as a user's build would
 * make it): it reaches no Node module and none of the server runtime, and it carries exactly the
 * validators of what it calls. A client made with `connectHttpWith([retrieveCall])` keeps the
 * lifecycle, notification and retrieve validators and drops every other method's; `connectHttp`
 * keeps every method's results and partials but no params validator and no whole-frame `message`.
 * Which validator functions a bundle holds is read from its text and compared with what they
 * reach in generated/validators.ts.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot } from "../generator/run-cli.js";
import { validatorExports } from "../generator/validator-exports.js";
import { browserBundle } from "./browser-bundle.js";

const scratch = mkdtempSync(join(tmpdir(), "rcp-bundle-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const generated = (file: string) => JSON.stringify(join(repoRoot, "generated", file));
const clientInfo = '{ clientInfo: { name: "page", version: "1" }, transport: { url: "http://127.0.0.1:9/rcp" } }';

/** Unminified, so validator functions keep their names. */
const bundle = (name: string, source: string) => browserBundle(scratch, name, source);

/** generated/validators.ts as a graph: each export's function, and each function's callees. */
function validatorGraph(): { exports: Map<string, string>; callees: Map<string, Set<string>> } {
  const source = readFileSync(join(repoRoot, "generated", "validators.ts"), "utf8");
  const exports = validatorExports(source);
  const callees = new Map<string, Set<string>>();
  // ajv's code is not indented: a top-level function starts a line, and nothing inside one does;
  // nor does an export, which ends the function before it.
  for (const chunk of source.split(/^(?=function validate\d+\()/m).slice(1)) {
    const name = /^function (validate\d+)\(/.exec(chunk)![1]!;
    const body = chunk.split(/^export /m)[0]!;
    callees.set(
      name,
      new Set([...body.matchAll(/\bvalidate\d+\b/g)].map((match) => match[0]).filter((callee) => callee !== name)),
    );
  }
  return { exports, callees };
}

/** Every validator function the named exports reach. */
function reached(names: readonly string[]): Set<string> {
  const { exports, callees } = validatorGraph();
  const seen = new Set<string>();
  const pending = names.map((name) => {
    const root = exports.get(name);
    if (root === undefined) throw new Error(`generated/validators.ts exports no ${name}`);
    return root;
  });
  while (pending.length > 0) {
    const next = pending.pop()!;
    if (seen.has(next)) continue;
    seen.add(next);
    pending.push(...(callees.get(next) ?? []));
  }
  return seen;
}

const validatorsIn = (text: string) =>
  new Set([...text.matchAll(/^function (validate\d+)\(/gm)].map((match) => match[1]!));

/** What every client checks: the lifecycle results and the notifications it receives or sends. */
const SESSION = [
  "initializeResult",
  "infoResult",
  "pingResult",
  "shutdownResult",
  "progressNotificationParams",
  "logNotificationParams",
  "cancelNotificationParams",
];

describe("the generated client in a browser bundle", () => {
  it("reaches no Node module or global, nor the server runtime: only the client, the protocol and the SSE parser", async () => {
    const { inputs, text } = await bundle(
      "connect-http",
      `import { connectHttp } from ${generated("client.js")};
       const client = await connectHttp(${clientInfo});
       console.log(await client.retrieve({ query: "q", k: 3 }, { onProgress: (event) => console.log(event.progress) }));`,
    );
    const runtime = inputs.filter((file) => file.startsWith("runtime/src/"));
    expect(runtime.filter((file) => !file.startsWith("runtime/src/client/")).sort()).toEqual([
      "runtime/src/framing/bounded-body.ts",
      "runtime/src/protocol/descriptor.ts",
      "runtime/src/protocol/dotted-paths.ts",
      "runtime/src/protocol/errors.ts",
      "runtime/src/protocol/interceptor-chain.ts",
      "runtime/src/protocol/standard-schema.ts",
      "runtime/src/protocol/validation-issue.ts",
      // The names by which a client recognises and asks for resumable streams (docs/resumable-streams.md).
      "runtime/src/resume/wire.ts",
    ]);
    expect(runtime).not.toContain("runtime/src/client/stdio-transport.ts");
    // Node's globals: none is read (the type-check of test/web/universal.test.ts says why).
    expect(text).not.toMatch(/\bBuffer\b|\bprocess\.|\brequire\(/);
    expect(inputs.filter((file) => !file.startsWith("runtime/src/")).sort()).toEqual([
      expect.stringMatching(/connect-http\.ts$/),
      "generated/client.ts",
      "generated/methods.ts",
      "generated/validators.ts",
      "node_modules/eventsource-parser/dist/index.js",
    ]);
  });

  it("connectHttpWith([retrieveCall]) carries the session's and retrieve's validators and no other", async () => {
    const { text } = await bundle(
      "retrieve-only",
      `import { connectHttpWith } from ${generated("client.js")};
       import { retrieveCall } from ${generated("methods.js")};
       const client = await connectHttpWith([retrieveCall], ${clientInfo});
       console.log(await client.retrieve({ query: "q", k: 3 }, { onProgress: (event) => console.log(event.progress) }));`,
    );
    const expected = reached([...SESSION, "retrieveResult", "retrievePartial"]);
    expect([...validatorsIn(text)].sort()).toEqual([...expected].sort());
    expect([...reached(["rerankResult", "graphResult", "embedMultiResult"])].some((name) => !expected.has(name))).toBe(
      true,
    );
  });

  it("connectHttp carries every method's result and partial validators, and no params nor message validator", async () => {
    const { text } = await bundle(
      "every-method",
      `import { connectHttp } from ${generated("client.js")};
       const client = await connectHttp(${clientInfo});
       console.log(client.retrieve, client.rerank, client.graphPages);`,
    );
    const { exports } = validatorGraph();
    const outcomes = [...exports.keys()].filter((name) => /(Result|Partial)$/.test(name));
    expect([...validatorsIn(text)].sort()).toEqual([...reached([...SESSION, ...outcomes])].sort());
    const paramsOnly = [...reached(["retrieveParams", "message"])].filter((name) => !validatorsIn(text).has(name));
    expect(paramsOnly.length).toBeGreaterThan(0);
  });

  it("importing validators.ts for nothing keeps no validator, only ajv's module-level patterns", async () => {
    const { text } = await bundle("bare", `import ${generated("validators.js")};`);
    // A bundler keeps a `new RegExp` it cannot prove free of effects: a few bytes that name no validator.
    const code = text.split("\n").filter((line) => line !== "" && !line.startsWith("//"));
    expect(code.length).toBeGreaterThan(0);
    for (const line of code) expect(line).toMatch(/^var pattern\d+ = new RegExp\("[^\n]*", "u"\);$/);
  });
});
