/**
 * The inspector's page at 1400x900 in Chromium (issue 40): nothing overlaps or spills out of
 * its box (the capability table's header cells, the frame times, the conformance report in its
 * column), the page stays a few screens tall after a conformance run, frame times count from
 * their own call, an edited raw request refills the form, and the page says when it is ready
 * (`data-ready`, set once the schema's forms are built and the frames so far are shown), which
 * is what a CI screenshot waits for. The conformance button reads the project's settings
 * (`conform.query`): the threshold engine (test/fixtures/conform) is certified L1 from the page
 * as by the CLI. Screenshots go to test-output/inspect (git-ignored).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { THRESHOLD } from "../conform/conform-cli.js";
import { DEMO_SERVE } from "../demo/demo-child.js";
import { repoRoot } from "../generator/run-cli.js";
import { announceBrowserSkip, launchChromium, runBrowserSuite } from "../web/chromium.js";
import { startInspector, startInspectorIn, type Inspector } from "./inspector.js";

announceBrowserSkip("inspector layout suite");
const OUTPUT = join(repoRoot, "test-output", "inspect");
const VIEWPORT = { width: 1400, height: 900 };

interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

describe.skipIf(!runBrowserSuite)("the inspector's page at 1400x900", () => {
  const scratch = mkdtempSync(join(tmpdir(), "rcp-inspect-layout-"));
  let context: BrowserContext;
  const inspectors: Inspector[] = [];

  beforeAll(async () => {
    mkdirSync(OUTPUT, { recursive: true });
    context = await launchChromium(join(scratch, "profile"));
  }, 60_000);

  afterAll(async () => {
    await Promise.allSettled([context?.close(), ...inspectors.map((inspector) => inspector.stop())]);
    rmSync(scratch, { recursive: true, force: true });
  });

  /** A page on `inspector`, recording how many frames were shown when it said it was ready. */
  async function open(inspector: Inspector): Promise<Page> {
    inspectors.push(inspector);
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await page.setViewportSize(VIEWPORT);
    await page.addInitScript(() => {
      new MutationObserver((_mutations, observer) => {
        if (!document.querySelector("[data-ready]")) return;
        observer.disconnect();
        (window as unknown as { atReady: unknown }).atReady = {
          frames: document.querySelectorAll("#frames > li").length,
          form: document.querySelector("#params-form") !== null,
        };
      }).observe(document, { attributes: true, subtree: true, attributeFilter: ["data-ready"] });
    });
    await page.goto(inspector.url);
    await page.waitForSelector("[data-ready]");
    return page;
  }

  describe("against the demo engine over stdio", () => {
    let page: Page;
    beforeAll(async () => {
      page = await open(await startInspector("--", process.execPath, DEMO_SERVE, "--stdio"));
    }, 60_000);

    it("marks itself ready once its forms are built and the frames so far are shown", async () => {
      const atReady = await page.evaluate(() => (window as unknown as { atReady: unknown }).atReady);
      // initialize and its result were on the wire before the page opened.
      expect(atReady).toEqual({ frames: 2, form: true });
    });

    it("fits each header cell of the capability table, and the connection's facts, in their boxes", async () => {
      const spilling = await page.locator("#capabilities th, #connection dd").evaluateAll((cells) =>
        cells.flatMap((cell) => {
          const range = document.createRange();
          range.selectNodeContents(cell);
          const text = range.getBoundingClientRect();
          const box = cell.getBoundingClientRect();
          return text.left >= box.left - 0.5 && text.right <= box.right + 0.5 ? [] : [cell.textContent];
        }),
      );
      // "advertised" once ran into "maxima", "sparseEmbed" into its "yes", a long path out of the panel.
      expect(spilling).toEqual([]);
      expect(await page.locator("#capabilities thead th").allTextContents()).toEqual([
        "capability",
        "advertised",
        "maxima and settings",
      ]);
    });

    it("refills the form from an edited raw request, and the form then writes on from it", async () => {
      const edited = {
        jsonrpc: "2.0",
        id: 1,
        method: "retrieve",
        params: { query: "raised bed", k: 4, mode: "sparse", _meta: { "x-demo-delayMs": 20 } },
      };
      await page.fill("#raw", JSON.stringify(edited, null, 2));
      await page.waitForFunction(
        () => document.querySelector<HTMLInputElement>("#field-query")?.value === "raised bed",
      );
      expect(await page.inputValue("#field-k")).toBe("4");
      expect(await page.inputValue("#field-mode")).toBe('"sparse"');
      expect(JSON.parse(await page.inputValue("#field-_meta"))).toEqual({ "x-demo-delayMs": 20 });
      // The optional parameters it set are in view.
      expect(await page.locator("#optional").evaluate((details) => (details as HTMLDetailsElement).open)).toBe(true);
      await page.fill("#field-k", "3");
      const raw = JSON.parse(await page.inputValue("#raw")) as { params: unknown };
      expect(raw.params).toEqual({ query: "raised bed", k: 3, mode: "sparse", _meta: { "x-demo-delayMs": 20 } });
    });

    it("counts each frame's time from its own call, in labels that fit beside the frame's name", async () => {
      // Long after the connection opened, so times counted from it would be large.
      await page.waitForTimeout(1500);
      await page.fill("#field-query", "compost for tomatoes");
      await page.fill("#field-k", "3");
      await page.click("#send");
      await page.waitForSelector("#hits tbody tr");
      const elapsed = Number(/after (\d+) ms/.exec((await page.textContent("#call-result h3")) ?? "")?.[1]);
      const rows = await page.locator("#frames > li summary").evaluateAll((summaries) =>
        summaries.map((summary) => {
          const parts = [...summary.children].map((child) => child.getBoundingClientRect());
          const at = summary.querySelector<HTMLElement>(".at")!;
          const overlapping = parts.some((a, i) => parts.some((b, j) => i < j && a.right > b.left + 0.5));
          return {
            what: summary.querySelector(".what")!.textContent,
            at: at.textContent,
            fits: at.scrollWidth <= at.clientWidth && !overlapping,
          };
        }),
      );
      const call = rows.slice(rows.findLastIndex((row) => /^retrieve #\d+$/.test(row.what ?? "")));
      expect(call[0]).toMatchObject({ at: "0 ms", fits: true });
      expect(call.length).toBeGreaterThan(2);
      for (const row of call.slice(1)) {
        expect(row.at).toMatch(/^\+\d+ ms$/);
        expect(Number(/\d+/.exec(row.at)![0])).toBeLessThanOrEqual(elapsed + 50);
      }
      expect(rows.filter((row) => !row.fits)).toEqual([]);
      await page.screenshot({ path: join(OUTPUT, "layout-retrieve.png"), fullPage: true });
    });
  });

  describe("against the threshold engine, in a project whose settings give conform.query", () => {
    let page: Page;
    beforeAll(async () => {
      const project = join(scratch, "project");
      mkdirSync(project);
      writeFileSync(join(project, "rcp-gen.config.json"), JSON.stringify({ conform: { query: "compost tomatoes" } }));
      page = await open(await startInspectorIn(project, "--", ...THRESHOLD));
    }, 60_000);

    it("certifies the declared level as the CLI does, and fits the report in its column", async () => {
      await page.click("#run-conform");
      await page.waitForSelector("#conform-verdict", { timeout: 60_000 });
      expect(await page.textContent("#conform-verdict")).toBe("declared L1, certified L1: the declared level holds");
      expect(await page.textContent("#conform-query")).toBe(
        'probe query "compost tomatoes" (conform.query in rcp-gen.config.json)',
      );
      const boxes = await page.evaluate(() => {
        const box = (selector: string) => document.querySelector(selector)!.getBoundingClientRect().toJSON() as Box;
        const report = document.querySelector<HTMLElement>("#conform-report")!;
        return {
          column: box("aside"),
          panel: box("#conform"),
          report: box("#conform-report"),
          reportOverflows: report.scrollWidth > report.clientWidth,
          height: document.documentElement.scrollHeight,
        };
      });
      expect(boxes.panel.right).toBeLessThanOrEqual(boxes.column.right + 0.5);
      expect(boxes.report.right).toBeLessThanOrEqual(boxes.panel.right + 0.5);
      expect(boxes.reportOverflows).toBe(false);
      console.log(`inspector layout: page height ${boxes.height} px after a conformance run`);
      // A few screens, not the ten thousand pixels of a report drawn as one long table.
      expect(boxes.height).toBeLessThan(3 * VIEWPORT.height);
      expect(await page.locator("#conform-report .check.pass").count()).toBeGreaterThan(10);
      expect(await page.locator("#conform-report .check.fail").count()).toBe(0);
      await page.screenshot({ path: join(OUTPUT, "layout-conform.png"), fullPage: true });
    }, 90_000);
  });

  describe("against the threshold engine, in a folder without settings", () => {
    let page: Page;
    beforeAll(async () => {
      const folder = join(scratch, "no-settings");
      mkdirSync(folder);
      page = await open(await startInspectorIn(folder, "--", ...THRESHOLD));
    }, 60_000);

    it("says the declared level is inconclusive and why, the inconclusive checks first", async () => {
      await page.click("#run-conform");
      await page.waitForSelector("#conform-verdict", { timeout: 60_000 });
      expect(await page.textContent("#conform-verdict")).toBe(
        'declared L1, certified L0: inconclusive: no hits for "retrieval", set conform.query (or --query)',
      );
      expect(await page.locator("#conform-report .check").first().getAttribute("class")).toBe("check inconclusive");
      expect(await page.locator("#conform-report .check.fail").count()).toBe(0);
    }, 90_000);
  });
});
