/**
 * The inspector's frame log shows a resumed stream (issue 43; docs/inspector.md): `rcp-gen
 * inspect --http` reaches the demo engine with `--resumable` through a proxy that cuts the
 * first streamed response right after its first progress frame. In Chromium, the call still
 * ends with its hits; the frame log has a line for the reconnect, naming the call and the event
 * it resumes after, and marks each frame the reconnect delivered, each progress frame once.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_SERVE } from "../demo/demo-child.js";
import { repoRoot } from "../generator/run-cli.js";
import { cuttingProxy, type CuttingProxy } from "../resume/cutting-proxy.js";
import { announceBrowserSkip, launchChromium, runBrowserSuite } from "../web/chromium.js";
import { startUrlProcess, type UrlProcess } from "../web/processes.js";
import { startInspector, type Inspector } from "./inspector.js";

announceBrowserSkip("inspector reconnect view");
const OUTPUT = join(repoRoot, "test-output", "inspect");

describe.skipIf(!runBrowserSuite)("rcp-gen inspect against a resumable engine whose stream is cut", () => {
  const scratch = mkdtempSync(join(tmpdir(), "rcp-inspect-reconnect-"));
  let context: BrowserContext;
  let engine: UrlProcess;
  let proxy: CuttingProxy;
  let inspector: Inspector;
  let page: Page;

  beforeAll(async () => {
    mkdirSync(OUTPUT, { recursive: true });
    [context, engine] = await Promise.all([
      launchChromium(join(scratch, "profile")),
      startUrlProcess(process.execPath, [DEMO_SERVE, "--port", "0", "--resumable"]),
    ]);
    // The first response with numbered events is cut just after its second (the first progress frame).
    proxy = await cuttingProxy(engine.url, { chance: 1, events: 2, span: 1, maxCuts: 1 });
    inspector = await startInspector("--http", proxy.url);
    page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await page.setViewportSize({ width: 1500, height: 1000 });
    await page.goto(inspector.url);
    await page.waitForSelector('body[data-ready="true"]');
  }, 90_000);

  afterAll(async () => {
    await Promise.allSettled([context?.close(), inspector?.stop(), proxy?.close(), engine?.stop()]);
    rmSync(scratch, { recursive: true, force: true });
  });

  it("logs the reconnect, marks the frames it delivered, and the call ends with its hits", async () => {
    await page.fill("#field-query", "compost for tomatoes");
    await page.fill("#field-k", "3");
    await page.click("#send");
    await page.waitForSelector("#hits tbody tr");
    expect(proxy.cuts).toBe(1);
    expect(await page.locator("#hits tbody tr").count()).toBe(3);

    const reconnect = page.locator("#frames > li.reconnect");
    expect(await reconnect.count()).toBe(1);
    expect(await reconnect.locator(".what").textContent()).toBe(
      "stream cut: reconnect 1 for retrieve #2, resuming after event 1",
    );
    const log = await page.locator("#frames > li").evaluateAll((items) =>
      items.map((item) => ({
        what: item.querySelector(".what")!.textContent,
        resumed: item.classList.contains("resumed"),
        reconnect: item.classList.contains("reconnect"),
      })),
    );
    const cutAt = log.findIndex((entry) => entry.reconnect);
    const before = log.slice(0, cutAt);
    const after = log.slice(cutAt + 1);
    // Before the cut: the request and its first progress frame, not resumed.
    expect(before.slice(-2)).toEqual([
      { what: "retrieve #2", resumed: false, reconnect: false },
      { what: expect.stringMatching(/^notifications\/progress /) as unknown, resumed: false, reconnect: false },
    ]);
    // After it: the rest of the progress, then the result, each resumed; no frame twice.
    expect(after.length).toBeGreaterThan(1);
    expect(after.every((entry) => entry.resumed)).toBe(true);
    expect(after.at(-1)!.what).toBe("result #2");
    const stages = log.filter((entry) => entry.what.startsWith("notifications/progress")).map((entry) => entry.what);
    expect(new Set(stages).size).toBe(stages.length);
    expect(await page.locator("#timeline .stage").count()).toBe(stages.length);
    await page.screenshot({ path: join(OUTPUT, "http-reconnect.png"), fullPage: true });
  });
});
