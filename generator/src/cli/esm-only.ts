/**
 * Generated code is ESM only (top-level imports of ESM-only runtime entries, `.js` specifiers),
 * so rcp-gen refuses to write it where Node would load it as CommonJS: under a package.json
 * without `"type": "module"`. Without that refusal a CommonJS project only learns it from
 * TS1479 or ERR_REQUIRE_ESM, far from the cause. No package.json at all is left alone: such a
 * folder belongs to no project (a scratch folder, or a bundler's input).
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

export class CommonJsProjectError extends Error {
  override name = "CommonJsProjectError";
  /** The one-line fix, for the line after the message. */
  readonly fix: string;

  constructor(out: string, manifest: string) {
    super(`generated code is ESM only, but ${manifest} has no "type": "module", so Node would load ${out} as CommonJS`);
    this.fix = `add "type": "module" to ${manifest} (in its folder: npm pkg set type=module)`;
  }
}

/** The package.json that decides how Node loads files in `dir`: the nearest one at or above it. */
export function nearestPackageJson(dir: string): string | undefined {
  for (let at = resolve(dir); ; at = dirname(at)) {
    const candidate = join(at, "package.json");
    if (existsSync(candidate)) return candidate;
    if (dirname(at) === at) return undefined;
  }
}

/** Throws a CommonJsProjectError when Node would load `out` as CommonJS. */
export function requireEsmFolder(out: string): void {
  const manifest = nearestPackageJson(out);
  if (manifest === undefined) return;
  let type: unknown;
  try {
    type = (JSON.parse(readFileSync(manifest, "utf8")) as { type?: unknown }).type;
  } catch {
    return; // npm and Node report a broken package.json better than rcp-gen could.
  }
  if (type !== "module") throw new CommonJsProjectError(out, manifest);
}
