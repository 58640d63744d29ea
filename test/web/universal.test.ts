/**
 * What must run on any Web-standard host (browsers, workers, Deno, Bun) uses Web APIs only:
 * the runtime's universal entries, the generated code but node.ts, and the demo engine behind
 * `server.fetch` type-check with no Node types and the Web Worker globals alone
 * (test/web/tsconfig.universal.json), so a `Buffer`, `process` or `node:` import that creeps
 * onto that path fails here.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot } from "../generator/run-cli.js";

const universalConfig = join(repoRoot, "test", "web", "tsconfig.universal.json");
const scratch = mkdtempSync(join(tmpdir(), "rcp-universal-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function typeCheck(config: string): { status: number | null; output: string } {
  const tsc = join(repoRoot, "node_modules", ".bin", "tsc");
  const result = spawnSync(tsc, ["-p", config], { encoding: "utf8", timeout: 120_000 });
  return { status: result.status, output: result.stdout + result.stderr };
}

describe("the universal path: Web APIs only", () => {
  it("type-checks the runtime's universal entries, generated code and the demo engine without Node types", () => {
    const { status, output } = typeCheck(universalConfig);
    expect(output).toBe("");
    expect(status).toBe(0);
  });

  it("would fail on a Buffer, a process or a node: import (the check can fail)", () => {
    const leak = join(scratch, "leak.ts");
    writeFileSync(
      leak,
      'import { isUtf8 } from "node:buffer";\nexport const leaked = [isUtf8, Buffer.from("x"), process.env];\n',
    );
    writeFileSync(join(scratch, "package.json"), '{ "type": "module" }');
    const config = join(scratch, "tsconfig.json");
    writeFileSync(
      config,
      JSON.stringify({ extends: universalConfig, compilerOptions: { rootDir: scratch }, files: [leak] }),
    );
    const { status, output } = typeCheck(config);
    expect(status).not.toBe(0);
    expect(output).toContain("node:buffer");
    expect(output).toContain("'Buffer'");
    expect(output).toContain("'process'");
  });
});
