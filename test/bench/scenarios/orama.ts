/**
 * Scenario 16: the Orama example engine (docs/examples/orama-engine) beside the demo engine,
 * each as a user runs it (serve.js --stdio), under the same pipelined retrieve of the bench
 * fixture (k 3, each engine's default mode, hybrid) over the same 320 documents. Reported, no
 * target: the engines do different work per request (the Orama one runs a full-text, a vector
 * and a hybrid search; the demo fuses its BM25 and vector recall itself).
 */
import { fileURLToPath } from "node:url";
import { alternate, medianTable, reportedOnlyNotes } from "../alternate.js";
import { clientBoundNotes } from "../client-bound.js";
import type { Mode } from "../modes.js";
import { serverScript, type StdioPeer } from "../peers.js";
import type { ScenarioReport } from "../report.js";
import { ratio } from "../stats.js";
import { stdioRound } from "./stdio.js";

const examples = (path: string): string => fileURLToPath(new URL(`../../../docs/examples/${path}`, import.meta.url));
/** The demo engine's 320 documents, which the Orama engine loads too: both search the same corpus. */
const CORPUS = examples("demo-engine/corpus.json");

const engine = (label: string, folder: string, args: readonly string[]): StdioPeer => ({
  label,
  server: {
    script: examples(`${folder}/serve.js`),
    args: ["--stdio", ...args],
    nodeFlags: ["--import", serverScript("probe-preload")],
  },
  dialect: "rcp",
  // Reported, no target.
  reportedOnly: true,
});

const DEMO = "demo engine";
const ORAMA = "Orama engine";
const ENGINES = [engine(DEMO, "demo-engine", []), engine(ORAMA, "orama-engine", ["--corpus", CORPUS])];

export async function oramaScenario(mode: Mode): Promise<ScenarioReport> {
  const samples = await alternate(mode.rounds, ENGINES, (peer) => stdioRound(peer, mode.engines), mode.reportedRounds);
  const { rows, metric } = medianTable(ENGINES, samples);
  const rate = (label: string): number => metric(label, "requestsPerSecond");
  return {
    id: "16",
    title: `the Orama example engine beside the demo engine: stdio retrieve, ${mode.engines.requests} requests, ${mode.engines.inFlight} in flight, median of ${mode.reportedRounds} round(s)`,
    rows,
    targets: [],
    samples: Object.fromEntries(samples),
    notes: [
      ...reportedOnlyNotes(ENGINES, mode.rounds, mode.reportedRounds),
      ...clientBoundNotes(samples),
      `stdio retrieve req/s, Orama engine / demo engine: ${ratio(rate(ORAMA), rate(DEMO)).toFixed(2)}x (reported, no target)`,
      "both engines as users run them (serve.js --stdio) over the demo's 320 documents, retrieving the bench fixture's query with k 3 in their default mode, hybrid: the demo's BM25 and hashed n-gram vectors fused by RRF; Orama's full-text, vector and hybrid searches",
    ],
  };
}
