/**
 * `rcp-gen inspect` in a real browser (issue 31): the built CLI serves its page for the demo
 * engine over stdio (§5.1) and over HTTP (§5.2), and Debian's Chromium, driven by
 * playwright-core, uses it as a person would: reads the connection and capabilities, fills the
 * retrieve form and watches progress frames arrive before the hits (§9), cancels a slowed call
 * and reads its -32006 (§7.14), and sees a raw request flagged as invalid before anything is
 * sent. A page of another origin cannot make the inspector call the engine. The same page
 * drives the reference Python example server over stdio. Screenshots go to test-output/inspect
 * (git-ignored); the time from the URL being printed to the first render is logged, not asserted.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEMO_SERVE } from "../demo/demo-child.js";
import { repoRoot } from "../generator/run-cli.js";
import { PYTHON, reference, referencePresent } from "../interop/reference.js";
import { announceBrowserSkip, launchChromium, runBrowserSuite } from "../web/chromium.js";
import { startUrlProcess, type UrlProcess } from "../web/processes.js";
import { recordedFrames, startInspector, type Inspector } from "./inspector.js";

announceBrowserSkip("inspector browser suite");
const OUTPUT = join(repoRoot, "test-output", "inspect");

describe.skipIf(!runBrowserSuite)("rcp-gen inspect in Chromium", () => {
  const scratch = mkdtempSync(join(tmpdir(), "rcp-inspect-browser-"));
  let context: BrowserContext;
  let httpEngine: UrlProcess;
  const inspectors: Record<"stdio" | "http", Inspector> = {} as Record<"stdio" | "http", Inspector>;

  const pages: Record<"stdio" | "http", Page> = {} as Record<"stdio" | "http", Page>;

  beforeAll(async () => {
    mkdirSync(OUTPUT, { recursive: true });
    [context, httpEngine] = await Promise.all([
      launchChromium(join(scratch, "profile")),
      startUrlProcess(process.execPath, [DEMO_SERVE, "--port", "0"]),
    ]);
    // The browser is up first, so the time to the first render is the inspector's and the page's alone.
    const openPage = async (transport: "stdio" | "http", inspector: Inspector): Promise<void> => {
      inspectors[transport] = inspector;
      const page = await context.newPage();
      // Shorter than a test's own timeout, so a failure names the element it waited for.
      page.setDefaultTimeout(20_000);
      await page.setViewportSize({ width: 1500, height: 1000 });
      await page.goto(inspector.url);
      await page.waitForSelector('body[data-ready="true"]');
      const firstRender = Math.round(performance.now() - inspector.printedAt);
      console.log(`inspector (${transport}): first render ${firstRender} ms after the server printed its URL`);
      pages[transport] = page;
    };
    await Promise.all([
      startInspector("--", process.execPath, DEMO_SERVE, "--stdio").then((inspector) => openPage("stdio", inspector)),
      startInspector("--http", httpEngine.url).then((inspector) => openPage("http", inspector)),
    ]);
  }, 90_000);

  afterAll(async () => {
    await Promise.allSettled([
      context?.close(),
      httpEngine?.stop(),
      ...Object.values(inspectors).map((inspector) => inspector.stop()),
    ]);
    rmSync(scratch, { recursive: true, force: true });
  });

  describe.each(["stdio", "http"] as const)("against the demo engine over %s", (transport) => {
    let page: Page;
    beforeAll(() => {
      page = pages[transport];
    });
    // Chromium pauses animation frames in a page that is not in front, and clicks wait for them.
    beforeEach(() => page.bringToFront());

    it("shows the server, its declared level and its capabilities as a table (§6, §14)", async () => {
      expect(await page.textContent("#server-info")).toBe("rcp-demo-engine 0.1.0");
      expect(await page.textContent("#conformance")).toBe("L2");
      const retrieve = page.locator('#capabilities tr[data-capability="retrieve"]');
      expect(await retrieve.locator("td").first().textContent()).toBe("yes");
      expect(await retrieve.textContent()).toContain("maxK 50");
      expect(await retrieve.textContent()).toContain("modes: dense, sparse, hybrid");
      expect(await page.locator("#filter .op").allTextContents()).toEqual(expect.arrayContaining(["eq", "in", "gte"]));
      expect(await page.locator("#filter tbody th").allTextContents()).toContain("year");
      expect(await page.locator("#methods button").allTextContents()).toEqual(
        expect.arrayContaining(["retrieve", "rerank", "embed", "ping"]),
      );
    });

    it("builds the retrieve form from its schema: required members marked, enums as choices", async () => {
      const required = await page
        .locator(".field > label > .required")
        .evaluateAll((marks) => marks.map((mark) => mark.closest<HTMLElement>(".field")!.dataset.field));
      // fusion.method is required once fusion is given at all.
      expect(required.filter((field) => !field!.includes("."))).toEqual(["query", "k"]);
      expect(required).toContain("fusion.method");
      expect(await page.locator("#field-mode option").allTextContents()).toEqual([
        "(not set)",
        "dense",
        "sparse",
        "hybrid",
      ]);
    });

    it("streams a retrieve filled in the form: progress frames render before the hits (§9)", async () => {
      await page.fill("#field-query", "compost for tomatoes in a raised bed");
      await page.fill("#field-k", "3");
      await showOptional(page);
      await page.selectOption("#field-mode", "hybrid");
      const raw = JSON.parse(await page.inputValue("#raw")) as { method: string; params: Record<string, unknown> };
      expect(raw).toMatchObject({
        method: "retrieve",
        params: { query: "compost for tomatoes in a raised bed", k: 3, mode: "hybrid" },
      });
      await page.waitForSelector('#raw-verdict[data-ok="true"]');
      await recordArrivals(page);
      await page.click("#send");
      await page.waitForSelector("#hits tbody tr");
      const arrivals = await page.evaluate(() => (window as unknown as { arrivals: string[] }).arrivals);
      expect(arrivals[0]).toBe("progress");
      expect(arrivals.indexOf("result")).toBeGreaterThan(0);
      const stages = await page.locator("#timeline .stage").allTextContents();
      expect(stages.length).toBeGreaterThan(1);
      expect(stages[0]).toBe("recall");
      expect(await page.locator("#hits tbody tr").count()).toBe(3);
      expect(await page.locator("#hits tbody tr code").first().textContent()).toMatch(/^doc-\d+$/);
      expect(await page.textContent('#funnel [data-step="returned"] .count')).toBe("3 hits");
      expect(await page.textContent('#funnel [data-step="candidates"] .count')).toMatch(/^\d+ \(usage\)$/);
      expect(await page.locator("#partial-hits tbody tr").count()).toBe(3);
      await page.screenshot({ path: join(OUTPUT, `${transport}-retrieve.png`), fullPage: true });
      // With the optional parameters folded again: the picture docs/inspector.png is.
      await page.locator("#optional").evaluate((details) => ((details as HTMLDetailsElement).open = false));
      await page.screenshot({ path: join(OUTPUT, `${transport}-retrieve-folded.png`), fullPage: true });
    });

    it("lists every frame sent and received with its validation verdict", async () => {
      const frames = page.locator("#frames > li");
      expect(await frames.first().locator(".what").textContent()).toBe("initialize #1");
      expect(await page.locator("#frames > li.invalid").count()).toBe(0);
      expect(await page.locator("#frames .what").allTextContents()).toEqual(
        expect.arrayContaining(["retrieve #2", "notifications/progress recall", "result #2"]),
      );
    });

    it("cancels a slowed call with the Cancel button and shows its -32006 (§7.14)", async () => {
      // Each of the demo's stages then waits 1.5 s: the call is cancelled at its first progress frame.
      await page.fill("#field-query", "compost");
      await page.fill("#field-k", "3");
      await showOptional(page);
      await page.fill("#field-_meta", '{"x-demo-delayMs": 1500}');
      await page.click("#send");
      await page.waitForSelector("#timeline li");
      await page.click("#cancel");
      await page.waitForSelector('#call-error[data-code="-32006"]');
      expect(await page.textContent("#call-status")).toBe("cancelled");
      expect(await page.locator("#timeline li").count()).toBe(1);
      expect(await page.locator("#hits").count()).toBe(0);
      if (transport === "stdio")
        // Over a connection the cancellation is a notification, and the engine's own answer follows it.
        await page.waitForSelector('#frames .what:text-is("notifications/cancel")');
      await page.screenshot({ path: join(OUTPUT, `${transport}-cancelled.png`), fullPage: true });
    });

    it("flags an invalid raw request before sending it; sent anyway, the engine answers -32602", async () => {
      const framesBefore = await page.locator("#frames > li").count();
      await page.fill(
        "#raw",
        JSON.stringify({ jsonrpc: "2.0", id: 9, method: "retrieve", params: { query: "compost", k: "three" } }),
      );
      await page.waitForSelector('#raw-verdict[data-ok="false"]');
      expect(await page.textContent("#raw-verdict")).toContain('params.k: expected an integer, found "three"');
      expect(await page.textContent("#send")).toBe("Send anyway");
      expect(await page.locator("#frames > li").count()).toBe(framesBefore);
      await page.screenshot({ path: join(OUTPUT, `${transport}-invalid.png`), fullPage: true });
      await page.click("#send");
      await page.waitForSelector('#call-error[data-code="-32602"]');
      expect(await page.textContent("#call-error")).toContain('"field": "k"');
    });
  });

  it("runs rcp-gen conform against the engine when asked and renders its report (§14)", async () => {
    const page = pages.http;
    await page.bringToFront();
    await page.click("#run-conform");
    await page.waitForSelector("#conform-verdict", { timeout: 60_000 });
    expect(await page.textContent("#conform-verdict")).toBe("declared L2, certified L2: the declared level holds");
    expect(await page.locator("#conform-report .check.pass").count()).toBeGreaterThan(10);
    expect(await page.locator("#conform-report .check.fail").count()).toBe(0);
    await page.screenshot({ path: join(OUTPUT, "http-conform.png"), fullPage: true });
  }, 90_000);

  it("refuses a page of another origin, even one that knows the token", async () => {
    const inspector = inspectors.stdio;
    const foreign = await serveForeignPage();
    const page = await context.newPage();
    try {
      const framesBefore = (await recordedFrames(inspector)).length;
      await page.goto(`http://127.0.0.1:${foreign.port}/`);
      const outcome = await page.evaluate(
        async ({ origin, token }) => {
          // A simple request needs no preflight, so it reaches the server: only its Origin check stands.
          await fetch(`${origin}/api/call?token=${token}`, {
            method: "POST",
            mode: "no-cors",
            headers: { "content-type": "text/plain" },
            body: JSON.stringify({ method: "retrieve", params: { query: "x", k: 1 } }),
          });
          try {
            await fetch(`${origin}/api/session?token=${token}`);
            return "read";
          } catch {
            return "blocked";
          }
        },
        { origin: inspector.origin, token: inspector.token },
      );
      expect(outcome).toBe("blocked");
      expect((await recordedFrames(inspector)).length).toBe(framesBefore);
    } finally {
      await page.close();
      foreign.server.close();
    }
  });

  describe.skipIf(!referencePresent)("against the reference Python example server over stdio", () => {
    let inspector: Inspector;
    beforeAll(async () => {
      inspector = await startInspector("--", PYTHON, reference.pythonExampleServer);
    }, 40_000);
    afterAll(() => inspector?.stop());

    it("connects, shows what it advertises and runs a retrieve from the form", async () => {
      const page = await context.newPage();
      await page.setViewportSize({ width: 1500, height: 1000 });
      await page.goto(inspector.url);
      await page.waitForSelector('body[data-ready="true"]');
      expect(await page.textContent("#server-info")).toBe("rcp-example 1.0.0");
      expect(await page.textContent("#conformance")).toBe("L2");
      await page.fill("#field-query", "capital of France");
      await page.fill("#field-k", "2");
      await page.click("#send");
      await page.waitForSelector("#hits tbody tr");
      expect(await page.locator("#hits tbody tr").count()).toBe(2);
      expect(await page.locator("#hits tbody tr").first().textContent()).toContain("Paris");
      await page.screenshot({ path: join(OUTPUT, "reference-python-retrieve.png"), fullPage: true });
      await page.close();
    });
  });
});
if (!referencePresent)
  console.log(
    "inspector against the reference Python server skipped: ../shared/reference/rcp-ref is not in this clone",
  );

/** Opens the form's optional parameters (they start folded). */
async function showOptional(page: Page): Promise<void> {
  await page.locator("#optional").evaluate((details) => ((details as HTMLDetailsElement).open = true));
}

/** Records, in the page, whether each progress frame or the result was drawn first. */
async function recordArrivals(page: Page): Promise<void> {
  await page.evaluate(() => {
    const arrivals: string[] = [];
    (window as unknown as { arrivals: string[] }).arrivals = arrivals;
    new MutationObserver((mutations) => {
      for (const mutation of mutations)
        for (const node of mutation.addedNodes) {
          if (!(node instanceof HTMLElement)) continue;
          if (node.matches("#timeline li")) arrivals.push("progress");
          if (node.id === "call-result") arrivals.push("result");
        }
    }).observe(document.getElementById("stream")!, { childList: true, subtree: true });
  });
}

function serveForeignPage(): Promise<{ server: Server; port: number }> {
  const server = createServer((_request, response) =>
    response.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>another site</title>"),
  );
  return new Promise((listening) =>
    server.listen(0, "127.0.0.1", () => listening({ server, port: (server.address() as AddressInfo).port })),
  );
}
