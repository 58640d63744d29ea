/**
 * docs/examples/tanstack-query's React search page in Chromium against the demo engine over
 * HTTP: partial hits show before the result, and the page's Cancel cancels the call on the
 * engine (§7.14), seen by the engine's handler. The page is bundled with esbuild and served from
 * 127.0.0.1; the engine runs in this process (its CORS list names the page's origin). Without
 * Chromium the suite is skipped with one line, except where RCP_REQUIRE_BROWSER=1.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../generator/run-cli.js";
import { announceBrowserSkip, launchChromium, runBrowserSuite } from "../web/chromium.js";
import { servePage, type PageServer } from "../web/page-server.js";
import { listenDemo, type ListeningDemo } from "./demo-server.js";

announceBrowserSkip("TanStack Query page suite");

const EXAMPLE = join(repoRoot, "docs", "examples", "tanstack-query");

describe.skipIf(!runBrowserSuite)("the TanStack Query search page in Chromium", () => {
  const scratch = mkdtempSync(join(tmpdir(), "rcp-tanstack-"));
  let pageServer: PageServer | undefined;
  let origin: string;
  let demo: ListeningDemo;
  let context: BrowserContext;

  beforeAll(async () => {
    pageServer = await servePage(EXAMPLE, "search-page.tsx");
    origin = `http://127.0.0.1:${pageServer.port}`;
    [demo, context] = await Promise.all([listenDemo([origin]), launchChromium(join(scratch, "profile"))]);
  }, 60_000);

  afterAll(async () => {
    await Promise.allSettled([context?.close(), demo?.close()]);
    await pageServer?.close();
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
