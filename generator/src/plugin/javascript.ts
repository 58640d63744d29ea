/**
 * The JavaScript output format (`moduleFormat: "js"`), for projects that compile no TypeScript:
 * each generated `.ts` file becomes a `.js` file (ES2022 modules, as tsc would compile it) and
 * its `.d.ts`, through ts-morph's emit; other files (JSON, Markdown) pass through unchanged.
 * Every output file opens with the DO-NOT-EDIT banner its `.ts` file had.
 *
 * ts-morph is loaded here only, when the format is asked for: its bundled TypeScript is the
 * compiler API (the repository's own TypeScript has none) and takes a while to load.
 */
import { fileURLToPath } from "node:url";
import { lineComments } from "./generated-file.js";

/**
 * Where the generated sources sit, in memory only (nothing is written there): inside rcp-gen's
 * own package folder, so that the runtime imports resolve to the @rcp-gen/runtime rcp-gen
 * depends on and the declarations keep the runtime's types wherever TypeScript infers them
 * (the protocol descriptor), whatever is installed beside the output folder.
 */
const sourceRoot = fileURLToPath(new URL("../../.rcp-gen-javascript/", import.meta.url));

/**
 * Opens each .js file after its banner. A project under `checkJs` includes its source folder,
 * generated .js files too, and TypeScript would check them as hand-written JavaScript (ajv's
 * code, literals widened to string); their types are the .d.ts files beside them.
 */
const uncheckedJavaScript = "// @ts-nocheck (compiled output: its types are in the .d.ts beside it)\n";

const isTypeScript = (path: string) => path.endsWith(".ts") && !path.endsWith(".d.ts");

/** `files` with each TypeScript file replaced by its `.js` and `.d.ts`, in the same order; `banner` as generate() wrote it. */
export async function toJavaScript(
  files: ReadonlyMap<string, string>,
  banner: readonly string[],
): Promise<Map<string, string>> {
  const { Project, ts } = await import("ts-morph");
  const bannerText = `${lineComments("//", banner)}\n`;
  const project = new Project({
    skipAddingFilesFromTsConfig: true,
    compilerOptions: {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      declaration: true,
      // The generated code was type-checked when rcp-gen was built; emit only.
      noCheck: true,
      // Each file's JavaScript from its own text (generated code imports types with `import
      // type`): without it the emitter asks the checker about every identifier, which made
      // ajv's machine code in validators.ts most of the conversion's cost.
      isolatedModules: true,
      skipLibCheck: true,
      types: [],
      newLine: ts.NewLineKind.LineFeed,
    },
  });
  for (const [path, text] of files)
    if (isTypeScript(path))
      // The banner is set aside and put back on both outputs: TypeScript drops it from a
      // declaration file, and from a .js file whose first statement is a type-only import.
      project.createSourceFile(sourceRoot + path, text.startsWith(bannerText) ? text.slice(bannerText.length) : text);
  const result = project.emitToMemory();
  const emitted = new Map(
    result.getFiles().map((file) => {
      const path = file.filePath.slice(sourceRoot.length);
      return [path, `${bannerText}${path.endsWith(".js") ? uncheckedJavaScript : ""}${file.text}`] as const;
    }),
  );
  if (result.getEmitSkipped())
    throw new Error(
      `the JavaScript emit failed: ${result
        .getDiagnostics()
        .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.compilerObject.messageText, " "))
        .join("; ")}`,
    );
  const converted = new Map<string, string>();
  for (const [path, text] of files) {
    if (!isTypeScript(path)) {
      converted.set(path, text);
      continue;
    }
    for (const output of [path.replace(/\.ts$/, ".js"), path.replace(/\.ts$/, ".d.ts")]) {
      const content = emitted.get(output);
      if (content === undefined) throw new Error(`the JavaScript emit wrote no ${output}`);
      if (files.has(output)) throw new Error(`${output} is generated twice: as a file, and from ${path}`);
      converted.set(output, content);
    }
  }
  return converted;
}
