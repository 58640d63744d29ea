/**
 * `npm run fuzz`: the long fuzz campaign over stdio and HTTP against the hardening server, then
 * resumable streams cut at random by a TCP proxy (test/resume/chaos.ts, --cut-calls N, default 1000).
 * Options: --runs N (sequences per transport, default 2000), --seed S (default: random),
 * --only stdio|http|cut.
 * Prints the counts and exits 1 if any failure was found.
 */
import { parseArgs } from "node:util";
import { runCampaign, type FuzzCounts } from "./campaign.js";
import { httpTarget, stdioTarget } from "./targets.js";
import { chaos } from "../resume/chaos.js";

const { values } = parseArgs({
  options: {
    runs: { type: "string" },
    seed: { type: "string" },
    only: { type: "string" },
    "cut-calls": { type: "string" },
  },
});
const numRuns = Number(values.runs ?? 2000);
const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);

const total: FuzzCounts = { framesFuzzed: 0, faultsInjected: 0, responsesChecked: 0, failuresFound: 0 };
let failed = false;
const targets = { stdio: stdioTarget, http: httpTarget };
for (const [name, start] of Object.entries(targets)) {
  if (values.only !== undefined && values.only !== name) continue;
  const target = await start();
  const began = Date.now();
  const result = await runCampaign(target, { seed, numRuns, maxHeapGrowthBytes: 32 * 1024 * 1024 });
  target.close();
  for (const key of Object.keys(total) as Array<keyof FuzzCounts>) total[key] += result.counts[key];
  const seconds = ((Date.now() - began) / 1000).toFixed(1);
  const heap = (result.heapGrowthBytes / 1024 / 1024).toFixed(1);
  console.log(`${target.name}: ${JSON.stringify(result.counts)} heap growth ${heap} MiB, ${seconds} s`);
  if (result.failure) {
    failed = true;
    console.log(`${target.name} FAILED:\n${result.failure}`);
  }
}
if (values.only === undefined || values.only === "cut") {
  const began = Date.now();
  const outcome = await chaos({ calls: Number(values["cut-calls"] ?? 1000) });
  const seconds = ((Date.now() - began) / 1000).toFixed(1);
  console.log(
    `cut streams: ${outcome.calls} calls, ${outcome.cuts} cuts, ${outcome.reconnects} reconnects, ` +
      `${outcome.faults.length} faults, ${seconds} s`,
  );
  if (outcome.faults.length > 0) {
    failed = true;
    console.log(`cut streams FAILED:\n${outcome.faults.slice(0, 20).join("\n")}`);
  }
}
console.log(`seed ${seed}, ${numRuns} sequences per transport`);
console.log(
  `frames fuzzed ${total.framesFuzzed}, faults injected ${total.faultsInjected}, ` +
    `responses checked ${total.responsesChecked}, failures found ${total.failuresFound}`,
);
process.exit(failed ? 1 : 0);
