/**
 * docs/examples/tanstack-query's React search page in Chromium against the demo engine over
 * HTTP: partial hits show before the result, and the page's Cancel cancels the call on the
 * engine (§7.14), seen by the engine's handler. The page is bundled with esbuild and served from
 * 127.0.0.1; the engine runs in this process (its CORS list names the page's origin). Without
 * Chromium the suite is skipped with one line, except where RCP_REQUIRE_BROWSER=1.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../generator/run-cli.js";
import { announceBrowserSkip, launchChromium, runBrowserSuite } from "../web/chromium.js";
import { listenDemo, type ListeningDemo } from "./demo-server.js";

announceBrowserSkip("TanStack Query page suite");

const EXAMPLE = join(repoRoot, "docs", "examples", "tanstack-query");

describe.skipIf(!runBrowserSuite)("the TanStack Query search page in Chromium", () => {
  const scratch = mkdtempSync(join(tmpdir(), "rcp-tanstack-"));
  let pageServer: Server;
  let origin: string;
  let demo: ListeningDemo;
  let context: BrowserContext;

  beforeAll(async () => {
    const bundled = await build({
      entryPoints: [join(EXAMPLE, "search-page.tsx")],
      bundle: true,
      platform: "browser",
      format: "esm",
      define: { "process.env.NODE_ENV": '"production"' },
      write: false,
      logLevel: "silent",
    });
    const files: Record<string, { type: string; body: string }> = {
      "/": { type: "text/html", body: readFileSync(join(EXAMPLE, "index.html"), "utf8") },
      "/search-page.js": { type: "text/javascript", body: bundled.outputFiles[0]!.text },
    };
    pageServer = createServer((request, response) => {
      const file = files[new URL(request.url ?? "/", "http://page").pathname];
      response.writeHead(file ? 200 : 404, { "content-type": file?.type ?? "text/plain" }).end(file?.body ?? "");
    });
    await new Promise<void>((listening) => pageServer.listen(0, "127.0.0.1", listening));
    origin = `http://127.0.0.1:${(pageServer.address() as AddressInfo).port}`;
    [demo, context] = await Promise.all([listenDemo([origin]), launchChromium(join(scratch, "profile"))]);
  }, 60_000);

  afterAll(async () => {
    await Promise.allSettled([context?.close(), demo?.close()]);
    await new Promise((closed) => (pageServer ? pageServer.close(closed) : closed(undefined)));
    rmSync(scratch, { recursive: true, force: true });
  });

  async function open(query: string, delayMs: number): Promise<Page> {
    const page = await context.newPage();
    const search = new URLSearchParams({ engine: demo.url, q: query, delayMs: String(delayMs) });
    await page.goto(`${origin}/?${search.toString()}`);
    return page;
  }

  it("shows partial hits while the retrieve streams, then the result", async () => {
    const page = await open("neural networks", 150);
    await page.locator("li.hit.partial").first().waitFor({ timeout: 20_000 });
    expect(await page.locator("li.hit.final").count()).toBe(0);
    await page.waitForFunction(() => document.getElementById("status")?.textContent === "done", undefined, {
      timeout: 20_000,
    });
    const timeline = await page.locator("#timeline li").allTextContents();
    expect(timeline.at(-1)).toBe("result");
    expect(timeline.slice(0, -1).length).toBeGreaterThanOrEqual(2);
    for (const line of timeline.slice(0, -1)) expect(line).toMatch(/^partial \d+: /);
    expect(await page.locator("li.hit.final").count()).toBe(4);
    await page.close();
  });

  it("cancels the call on the engine when the page's query is cancelled (§7.14)", async () => {
    const page = await open("galaxy rotation curves", 400);
    await page.locator("li.hit.partial").first().waitFor({ timeout: 20_000 });
    await page.click("#cancel");
    await expect
      .poll(() => demo.aborted.filter((call) => call.method === "retrieve"), { timeout: 10_000 })
      .toEqual([{ method: "retrieve", code: -32006 }]);
    expect(await page.textContent("#status")).toBe("cancelled");
    expect(await page.locator("li.hit.final").count()).toBe(0);
    await page.close();
  });
});
