/**
 * What the validator micro-benchmarks (scenarios 5 and 15) share: the compiled generated
 * validators, and the time per call of a check that must give the same verdict every time.
 */
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { StandardValidator } from "../../../runtime/src/protocol/standard-schema.js";

const repoRoot = new URL("../../../../", import.meta.url);

/** dist/generated/validators.js, by export name. */
export const generatedValidators = (await import(
  pathToFileURL(fileURLToPath(new URL("dist/generated/validators.js", repoRoot))).href
)) as Record<string, StandardValidator<unknown> | undefined>;

/** Nanoseconds per call of `check` on `data` over `calls` calls; throws unless every verdict was `expected`. */
export function nsPerCall(calls: number, check: (data: unknown) => boolean, data: unknown, expected = true): number {
  const started = performance.now();
  let agreed = 0;
  for (let call = 0; call < calls; call += 1) if (check(data) === expected) agreed += 1;
  const elapsed = performance.now() - started;
  if (agreed !== calls) throw new Error(`the verdict on ${JSON.stringify(data)} was not ${expected}`);
  return (elapsed * 1e6) / calls;
}
