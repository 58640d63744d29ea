/**
 * "Adding a method means editing the schema only": a vendor method `x-acme/echo` is added
 * to a copy of schema/, generated, implemented and called with progress, with nothing in
 * generator/ or runtime/ touched.
 */
import { cpSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, expect, it } from "vitest";
import { repoRoot, runCli } from "./run-cli.js";
import { scratchFolder, typecheck } from "./typecheck.js";

const project = scratchFolder("add-method-");
afterAll(() => rmSync(project, { recursive: true, force: true }));

const echoMethod = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  title: "x-acme/echo",
  description: "Echoes the text back, reporting one progress event per word.",
  "x-rcp": { kind: "method", method: "x-acme/echo", capability: "x-acme", beforeInitialize: false, streaming: true },
  $defs: {
    params: {
      type: "object",
      required: ["text"],
      properties: {
        text: { type: "string", description: "What to echo." },
        _meta: { $ref: "../meta.json#/$defs/meta" },
      },
    },
    result: { type: "object", required: ["echo"], properties: { echo: { type: "string" } } },
    partial: { type: "object", required: ["word"], properties: { word: { type: "string" } } },
  },
};

/** User code: a server implementing the new handler and a client calling the new typed methods. */
const program = `
import { createServer, RcpClient, type XAcmeEchoPartial } from "./generated/index.js";
import { createMemoryTransportPair } from "${relative(project, join(repoRoot, "runtime/src/client/index.js"))}";

const base = { info: { name: "acme", version: "1.0.0" }, conformance: "L0" } as const;

/** Advertising x-acme without an x-acme/echo handler does not compile, and createServer refuses it at run time. */
export function halfBuilt() {
  // @ts-expect-error the x-acme/echo handler is missing
  return createServer({ ...base, capabilities: { "x-acme": { loud: true } }, handlers: {} });
}

export async function echoRoundTrip(text: string): Promise<{ partials: XAcmeEchoPartial[]; echo: string; fromCall: string }> {
  const server = createServer({
    ...base,
    capabilities: { streaming: {}, "x-acme": { loud: true } },
    handlers: {
      async *"x-acme/echo"(params) {
        const words = params.text.split(" ");
        for (const [index, word] of words.entries()) yield { progress: (index + 1) / words.length, partial: { word } };
        return { echo: params.text };
      },
    },
  });
  const pair = createMemoryTransportPair();
  const connection = server.connect(pair.server);
  const client = new RcpClient({ transport: pair.client, clientInfo: { name: "acme-client", version: "1.0.0" } });
  await client.connect();
  const partials: XAcmeEchoPartial[] = [];
  let echo = "";
  for await (const event of client.xAcmeEchoStream({ text })) {
    if (event.type === "progress" && event.partial) partials.push(event.partial);
    if (event.type === "result") echo = event.result.echo;
  }
  const fromCall = (await client.xAcmeEcho({ text })).echo;
  await client.close();
  connection.close();
  return { partials, echo, fromCall };
}
`;

it("generates, type-checks and serves x-acme/echo from a schema edit alone", async () => {
  cpSync(join(repoRoot, "schema"), join(project, "schema"), { recursive: true });
  writeFileSync(join(project, "schema/methods/x-acme-echo.json"), JSON.stringify(echoMethod, null, 2));
  const capabilitiesPath = join(project, "schema/capabilities.json");
  const capabilities = JSON.parse(readFileSync(capabilitiesPath, "utf8")) as {
    $defs: { serverCapabilities: { properties: Record<string, unknown> } };
  };
  capabilities.$defs.serverCapabilities.properties["x-acme"] = {
    type: "object",
    description: "Acme's vendor extension (§6.2).",
    properties: { loud: { type: "boolean" } },
  };
  writeFileSync(capabilitiesPath, JSON.stringify(capabilities, null, 2));

  const runtime = relative(join(project, "generated"), join(repoRoot, "runtime/src/codegen/server.js"));
  const generated = runCli(["--schema", "schema", "--out", "generated", "--runtime", runtime, "--quiet"], project);
  expect(generated.stderr).toBe("");
  expect(generated.status).toBe(0);
  expect(readFileSync(join(project, "generated/server.ts"), "utf8")).toContain('"x-acme/echo"?: Handler<');

  writeFileSync(join(project, "program.ts"), program);
  const checked = typecheck(project);
  expect(checked.output).toBe("");
  expect(checked.status).toBe(0);

  const { echoRoundTrip, halfBuilt } = (await import(pathToFileURL(join(project, "program.ts")).href)) as {
    echoRoundTrip: (text: string) => Promise<unknown>;
    halfBuilt: () => unknown;
  };
  expect(halfBuilt).toThrow("createServer: no handler for x-acme/echo (advertised by x-acme)");
  expect(await echoRoundTrip("one two three")).toEqual({
    partials: [{ word: "one" }, { word: "two" }, { word: "three" }],
    echo: "one two three",
    fromCall: "one two three",
  });
});
