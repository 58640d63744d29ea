/**
 * Scenario 10: what the generated client costs a web page. Two browser bundles made with esbuild
 * (platform browser, ESM, minified) from generated/ and the runtime, as a user's build makes
 * them: a page that calls `retrieve` with progress through `connectHttpWith([retrieveCall])`, and
 * one calling every method through `connectHttp`; each minified and gzipped (level 9).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { browserBundle } from "../../web/browser-bundle.js";
import type { ScenarioReport, Target } from "../report.js";

const repoRoot = fileURLToPath(new URL("../../../../", import.meta.url));
const BUDGET_KB = 40;
const generated = (file: string) => JSON.stringify(join(repoRoot, "generated", file));
const connectOptions = '{ clientInfo: { name: "page", version: "1.0.0" }, transport: { url: "/rcp" } }';

const PAGES: ReadonlyArray<{ label: string; source: string }> = [
  {
    label: "one method: connectHttpWith([retrieveCall]), retrieve with progress",
    source: `import { connectHttpWith } from ${generated("client.js")};
      import { retrieveCall } from ${generated("methods.js")};
      const client = await connectHttpWith([retrieveCall], ${connectOptions});
      const result = await client.retrieve({ query: "compost", k: 5 }, { onProgress: (event) => console.log(event.stage) });
      console.log(result.hits);`,
  },
  {
    label: "every method: connectHttp, each method called",
    source: `import { connectHttp } from ${generated("client.js")};
      const client = await connectHttp(${connectOptions});
      for (const name of Object.getOwnPropertyNames(Object.getPrototypeOf(client)).filter((name) => name !== "constructor"))
        console.log(name, await client[name]({}, { onProgress: (event) => console.log(event.stage) }));`,
  },
];

async function measure(work: string, index: number, source: string): Promise<{ minifiedKB: number; gzipKB: number }> {
  const { bytes } = await browserBundle(work, `page-${index}`, source, true);
  return { minifiedKB: bytes.byteLength / 1024, gzipKB: gzipSync(bytes, { level: 9 }).byteLength / 1024 };
}

export async function bundleScenario(): Promise<ScenarioReport> {
  const work = mkdtempSync(join(tmpdir(), "rcp-bench-bundle-"));
  try {
    const rows = [];
    const targets: Target[] = [];
    for (const [index, page] of PAGES.entries()) {
      const metrics = await measure(work, index, page.source);
      rows.push({ label: page.label.split(":")[0]!, metrics });
      targets.push({
        name: `${page.label}, gzipped`,
        measured: metrics.gzipKB,
        threshold: BUDGET_KB,
        kind: "max",
        unit: " KB",
      });
    }
    return {
      id: "10",
      title: "browser bundle of the generated client: esbuild, minified, then gzip -9",
      rows,
      targets,
      notes: [
        "connectHttp's clients carry every method's result and partial validators, never a params validator (the server checks params)",
      ],
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
