/**
 * The error table: RCP/1's codes live in the runtime (`rcpErrors`), and generated methods.ts
 * adds only the codes a schema folder's errors.json defines beyond them. rcp-gen refuses an
 * errors.json that disagrees with the runtime's table on a code both define, or that gives a
 * code of its own a standard symbol, naming the file and pointer.
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { transformSync } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";
import { loadSchemaFolder } from "../../generator/src/load/loader.js";
import { generate } from "../../generator/src/plugin/run-plugins.js";
import { repoRoot, runCli } from "./run-cli.js";
import {
  minimalSchemaFiles,
  removeSchemaFolders,
  schemaNode,
  writeSchemaFolder,
  type FolderFiles,
} from "./schema-fixture.js";

afterAll(removeSchemaFolders);

const builtRuntime = pathToFileURL(join(repoRoot, "runtime", "dist", "codegen", "server.js")).href;

/** The minimal folder with `codes` appended to its errors.json. */
function withCodes(...codes: object[]): FolderFiles {
  const files = minimalSchemaFiles();
  (schemaNode(files, "errors.json", "/x-rcp")["codes"] as object[]).push(...codes);
  return files;
}

const warming = { code: -32099, symbol: "EngineWarming", message: "The index is still loading.", retryable: "yes" };

describe("errors.json against RCP/1's table in the runtime", () => {
  it("refuses a standard code whose retry verdict differs, as one `file: pointer: problem` line", () => {
    const files = minimalSchemaFiles();
    schemaNode(files, "errors.json", "/x-rcp/codes/0")["retryable"] = "yes";
    const result = runCli(["--schema", writeSchemaFolder(files), "--out", join(writeSchemaFolder({}), "out")]);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain(
      'errors.json: /x-rcp/codes/0/retryable: code -32602 has retryable "no" in RCP/1\'s error table (the runtime\'s rcpErrors), not "yes"',
    );
  });

  it("refuses a code of the folder's own under a standard symbol, and reports every disagreement at once", () => {
    const files = withCodes({ ...warming, symbol: "NotFound" });
    schemaNode(files, "errors.json", "/x-rcp/codes/1")["message"] = "Unsupported option.";
    expect(() => loadSchemaFolder(writeSchemaFolder(files))).toThrow(
      [
        'errors.json: /x-rcp/codes/1/message: code -32005 has message "A requested option (mode/method) is not advertised." in RCP/1\'s error table (the runtime\'s rcpErrors), not "Unsupported option."',
        'errors.json: /x-rcp/codes/2/symbol: "NotFound" is RCP/1\'s symbol for -32015; code -32099 needs a symbol of its own',
      ].join("\n"),
    );
  });
});

describe("a folder with domain errors of its own", () => {
  it("generates the runtime's table plus its codes into the descriptor clients and servers read", async () => {
    const files = withCodes(warming);
    schemaNode(files, "methods/retrieve.json", "/x-rcp")["errors"] = ["EngineWarming"];
    const folder = loadSchemaFolder(writeSchemaFolder(files));
    const generated = await generate(folder, { runtimeSpecifier: builtRuntime, command: "test" });
    const methods = generated.get("methods.ts")!;
    expect(methods).toMatch(/^const errorDescriptors = \{\n {2}\.\.\.rcpErrors,\n {2}"-32099": \{$/m);
    expect(methods).not.toContain('"-32602"');
    for (const file of ["methods.ts", "validators.ts"])
      writeFileSync(
        join(folder.dir, file.replace(/\.ts$/, ".js")),
        transformSync(generated.get(file)!, { loader: "ts", format: "esm" }).code,
      );
    const script = `
      import { protocol, clientProtocol } from ${JSON.stringify(pathToFileURL(join(folder.dir, "methods.js")).href)};
      console.log(JSON.stringify([protocol.errors[-32099], protocol.errors[-32602]?.symbol,
        Object.keys(protocol.errors).length, clientProtocol.errors === protocol.errors]));`;
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(JSON.parse(run.stdout)).toEqual([warming, "InvalidParams", 19, true]);
  });
});
