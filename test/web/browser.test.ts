/**
 * The generated client in a real browser (issue 13): test/fixtures/web/page.ts bundled with
 * esbuild, served from 127.0.0.1, opened in Debian's Chromium driven by playwright-core. The
 * page calls the demo engine (its own process, another origin, the page's origin on its CORS
 * allow-list) and shows each progress frame of a streamed retrieve and then the hits, the -32006
 * of a call cancelled with an AbortController, and the -32602 field of a bad call; the test reads
 * the page. The same page from an origin the engine does not list cannot connect. Without
 * Chromium the suite is skipped with one line saying how to run it, except where
 * RCP_REQUIRE_BROWSER=1 (CI's .ci/run): there a missing browser fails. No browser is downloaded.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_SERVE } from "../demo/demo-child.js";
import { repoRoot } from "../generator/run-cli.js";
import { announceBrowserSkip, launchChromium, runBrowserSuite } from "./chromium.js";
import { servePage, type PageServer } from "./page-server.js";
import { startUrlProcess, type UrlProcess } from "./processes.js";

announceBrowserSkip("browser suite");

const PAGE_SOURCE = join(repoRoot, "test", "fixtures", "web");

describe.skipIf(!runBrowserSuite)("the generated client in Chromium", () => {
  const scratch = mkdtempSync(join(tmpdir(), "rcp-browser-"));
  let pageServer: PageServer | undefined;
  let pagePort: number;
  let engine: UrlProcess;
  let context: BrowserContext;

  beforeAll(async () => {
    pageServer = await servePage(PAGE_SOURCE, "page.ts");
    pagePort = pageServer.port;
    [engine, context] = await Promise.all([
      startUrlProcess(process.execPath, [DEMO_SERVE, "--port", "0", "--cors-origin", `http://127.0.0.1:${pagePort}`]),
      launchChromium(join(scratch, "profile")),
    ]);
  }, 60_000);

  afterAll(async () => {
    await Promise.allSettled([context?.close(), engine?.stop()]);
    await pageServer?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  /** Opens the page from `origin` and waits until it says it is done. */
  async function open(origin: string): Promise<Page> {
    const page = await context.newPage();
    await page.goto(`${origin}/?engine=${encodeURIComponent(engine.url)}`);
    await page.waitForFunction(() => document.getElementById("status")?.textContent !== "running", undefined, {
      timeout: 20_000,
    });
    return page;
  }

  const texts = (page: Page, selector: string) => page.locator(selector).allTextContents();

  it("streams a retrieve frame by frame, cancels a call with -32006 and shows a bad call's -32602 field", async () => {
    const page = await open(`http://127.0.0.1:${pagePort}`);
    expect(await page.textContent("#status")).toBe("done");
    expect(await page.textContent("#server")).toBe("rcp-demo-engine L2");
    const progress = await texts(page, "#progress li");
    expect(progress.length).toBeGreaterThan(1);
    for (const frame of progress) expect(frame).toMatch(/^\w+ 0\.\d+ 3$/);
    const fractions = progress.map((frame) => Number(frame.split(" ")[1]));
    expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
    expect(await texts(page, "#hits li")).toEqual([
      expect.stringMatching(/^doc-\d+$/),
      expect.any(String),
      expect.any(String),
    ]);
    expect(await page.textContent("#cancelled")).toBe("-32006");
    expect(await texts(page, "#cancelled-progress li")).toEqual(["recall"]);
    expect(await page.textContent("#invalid")).toBe("-32602 k");
    await page.close();
  });

  it("cannot connect from an origin the engine's allow-list does not hold", async () => {
    const page = await open(`http://localhost:${pagePort}`);
    expect(await page.textContent("#status")).toBe("done");
    expect(await page.textContent("#connect-error")).toMatch(/fetch/i);
    expect(await texts(page, "#progress li")).toEqual([]);
    await page.close();
  });
});
