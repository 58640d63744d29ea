/**
 * Resumable streams are invisible to peers that do not know them (§6.2; docs/resumable-streams.md):
 * the reference Python and Node clients (../shared/reference/rcp-ref) drive two demo engines,
 * one offering resumption (`--resumable`) and one not, each through a proxy that keeps every
 * byte the server sent. The reference streaming example's SSE client sees the same frames, byte
 * for byte; the SDK clients' every response is byte-identical too, but for the capability
 * itself, which initialize and info advertise. Only the clock is taken out of both sides before
 * they are compared: the Date header, and the demo's `usage.latencyMs`; and the bodies are compared
 * as their peers read them, de-chunked.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import {
  announceSkip,
  demoOverHttp,
  DRIVERS,
  PYTHON,
  referenceDir,
  referencePresent,
  type Child,
} from "../interop/reference.js";
import { cuttingProxy, type CuttingProxy } from "./cutting-proxy.js";

if (!referencePresent) announceSkip();

/** The capability as the demo's `--resumable` advertises it, with the comma that joins it to the others. */
const ADVERTISED = ',"x-rcp-resumable":{"retryMs":1000,"graceMs":30000}';

interface Engine {
  readonly child: Child;
  readonly proxy: CuttingProxy;
}

async function engine(...flags: string[]): Promise<Engine> {
  const { url, child } = await demoOverHttp(...flags);
  return { child, proxy: await cuttingProxy(url, { chance: 0 }) };
}

/** The clock taken out: the Date header, and the demo's `usage.latencyMs`. */
const timeless = (text: string): string =>
  text.replace(/^Date: [^\r\n]*\r\n/gim, "").replace(/("latencyMs": ?)\d+/g, "$1<ms>");

/** One HTTP response as its peer reads it: status line and headers, and the body, de-chunked. */
interface Sent {
  head: string;
  body: string;
}

/** The responses of one connection's bytes, one after another (keep-alive). */
function responses(bytes: string): Sent[] {
  const found: Sent[] = [];
  let rest = bytes;
  while (rest.length > 0) {
    const headEnd = rest.indexOf("\r\n\r\n") + 4;
    const head = rest.slice(0, headEnd);
    rest = rest.slice(headEnd);
    let body = "";
    if (/^Transfer-Encoding: chunked/im.test(head))
      for (;;) {
        const sizeEnd = rest.indexOf("\r\n");
        const size = Number.parseInt(rest.slice(0, sizeEnd), 16);
        body += rest.slice(sizeEnd + 2, sizeEnd + 2 + size);
        rest = rest.slice(sizeEnd + 2 + size + 2);
        if (size === 0) break;
      }
    else {
      const length = Number(/^Content-Length: (\d+)/im.exec(head)?.[1] ?? rest.length);
      body = rest.slice(0, length);
      rest = rest.slice(length);
    }
    // The body is compared whole; its length moves with the clock's digits (and an advertised
    // capability), and a wrong one would already have split the next response apart.
    found.push({ head: timeless(head).replace(/^(Content-Length: )\d+/im, "$1<length>"), body: timeless(body) });
  }
  return found;
}

/** What the server sent on the connections opened from `from` on. */
function sentSince(engine: Engine, from: number): Sent[] {
  return engine.proxy.received().slice(from).flatMap(responses);
}

/** The reference streaming example's SSE client (examples/example_streaming.py): what it printed, then the final frame. */
async function referenceSseRetrieve(url: string): Promise<string> {
  const { hostname, port } = new URL(url);
  const script = [
    "import json, sys",
    'sys.path.insert(0, "examples")',
    'sys.path.insert(0, "sdk/python")',
    "import example_streaming",
    `final = example_streaming.sse_retrieve(${JSON.stringify(hostname)}, ${port}, "compost for tomatoes", 3)`,
    "print(json.dumps(final))",
  ].join("\n");
  // Not spawnSync: the proxy runs in this process.
  const { stdout } = await promisify(execFile)(PYTHON, ["-c", script], { cwd: referenceDir, timeout: 30_000 });
  return stdout;
}

describe.skipIf(!referencePresent)("peers that know nothing of resumption, against a server that offers it", () => {
  let plain: Engine;
  let resumable: Engine;
  beforeAll(async () => {
    [plain, resumable] = await Promise.all([engine(), engine("--resumable")]);
  }, 30_000);
  afterAll(async () => {
    for (const { child, proxy } of [plain, resumable]) {
      await proxy?.close();
      child?.stop();
    }
  });

  it("the reference SSE client reads the same stream, byte for byte (§13)", async () => {
    const [plainFrom, resumableFrom] = [plain.proxy.received().length, resumable.proxy.received().length];
    const seen = timeless(await referenceSseRetrieve(plain.proxy.url));
    expect(timeless(await referenceSseRetrieve(resumable.proxy.url))).toBe(seen);
    expect(seen).toMatch(/progress .*\n[\s\S]*"result"/);
    const sent = sentSince(resumable, resumableFrom);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.head).toMatch(/^HTTP\/1\.1 200 [\s\S]*content-type: text\/event-stream/i);
    expect(sent[0]!.body).toMatch(/^data: \{"jsonrpc":"2.0","method":"notifications\/progress"/);
    expect(sent).toEqual(sentSince(plain, plainFrom));
  });

  it.each(["python", "node"] as const)(
    "the reference %s client gets the same bytes for every method, the advertised capability aside",
    async (client) => {
      const [plainFrom, resumableFrom] = [plain.proxy.received().length, resumable.proxy.received().length];
      const [plainReport, resumableReport] = [
        await DRIVERS[client](["http", plain.proxy.url]),
        await DRIVERS[client](["http", resumable.proxy.url]),
      ];
      expect(resumableReport.capabilities).toEqual([...plainReport.capabilities, "x-rcp-resumable"].sort());

      const plainSent = sentSince(plain, plainFrom);
      const resumableSent = sentSince(resumable, resumableFrom);
      // initialize and info advertise the capability; take it out, and the rest is the same.
      expect(resumableSent.filter(({ body }) => body.includes(ADVERTISED)).length).toBeGreaterThanOrEqual(2);
      const withoutCapability = resumableSent.map(({ head, body }) => ({ head, body: body.replace(ADVERTISED, "") }));
      expect(withoutCapability).toEqual(plainSent);
    },
    60_000,
  );
});
