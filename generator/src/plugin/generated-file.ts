/**
 * The file helper every target writes through, built-in or a user's plugin (protoplugin's
 * `GeneratedFile`, in spirit): print lines (and blocks, indented) through code-block-writer, the
 * writer ts-morph is built on; import symbols as they are used (collected, sorted, type-only where
 * only types are used); doc comments from schema descriptions with their provenance; and, at the
 * end, the DO-NOT-EDIT banner in the file's own comment syntax. The layout is prettier's: the run
 * formats every TypeScript and JavaScript file once (run-plugins.ts), so a target prints plain code.
 * A plugin that needs the syntax tree edits it through ts-morph (`editSource`), which is loaded only then.
 */
import { posix } from "node:path";
import CodeBlockWriter from "code-block-writer";
import type { SourceFile } from "ts-morph";
import { entrySpecifier, runtimeSymbols, type RuntimeSymbol } from "@rcp-gen/runtime/codegen-symbols";

/** What print() takes: text, numbers and booleans as written, lists one after the other. */
export type Printable = string | number | boolean | readonly Printable[];

/** How the banner is written, by file extension; JSON files take theirs as a member (json()). */
const commentStyles: Readonly<Record<string, (lines: readonly string[]) => string>> = {
  ts: (lines) => lineComments("//", lines),
  md: (lines) => `<!-- ${lines.join("\n     ")} -->`,
  yaml: (lines) => lineComments("#", lines),
};

/** Each line behind `mark`; a line break in a line (a path holding one) starts another comment, not code. */
export function lineComments(mark: string, lines: readonly string[]): string {
  return lines
    .flatMap((line) => line.split(/\r\n?|\n|\u2028|\u2029/))
    .map((line) => `${mark} ${line}`)
    .join("\n");
}
const styleOfExtension: Readonly<Record<string, keyof typeof commentStyles>> = {
  ts: "ts",
  mts: "ts",
  cts: "ts",
  js: "ts",
  mjs: "ts",
  cjs: "ts",
  md: "md",
  html: "md",
  yaml: "yaml",
  yml: "yaml",
};
const codeExtensions = new Set(["ts", "mts", "cts", "js", "mjs", "cjs"]);

/** Where a doc comment's text comes from: the spec section and the schema location. */
export interface DocOptions {
  /** A spec section (`§7.7`), added as `@see RCP/1 §7.7` unless the text already cites it. */
  readonly spec?: string | undefined;
  /** Where it comes from, e.g. `methods/retrieve.json#/$defs/params`: an `@generated from` line. */
  readonly from?: string | undefined;
}

/** Options of `newFile`. */
export interface NewFileOptions {
  /**
   * Whether prettier formats the file (TypeScript and JavaScript only; default `true`). `false`
   * writes it as printed: machine code such as ajv's validators, which no one reads.
   */
  readonly format?: boolean;
}

/** A change to a file's syntax tree (ts-morph's `SourceFile`), made after printing and before formatting. */
export type SourceEdit = (source: SourceFile) => void | Promise<void>;

export class PluginFileError extends Error {
  override name = "PluginFileError";
}

/** A file a plugin writes: printed line by line, with its imports collected at the top; `newFile` makes one. */
export class GeneratedFile {
  /** The path inside the output folder, posix, e.g. `client.ts` or `docs/retrieve.md`. */
  readonly path: string;
  /** Whether the run's prettier pass formats this file. */
  readonly formatted: boolean;
  readonly #runtimeSpecifier: string;
  readonly #writer = new CodeBlockWriter({ newLine: "\n", indentNumberOfSpaces: 2 });
  #printed = false;
  /** module specifier -> imported name -> whether only its type is used */
  readonly #imports = new Map<string, Map<string, boolean>>();
  readonly #edits: SourceEdit[] = [];
  #json: { value: object; bannerKey: string } | undefined;

  constructor(path: string, runtimeSpecifier: string, options: NewFileOptions = {}) {
    this.path = path;
    this.#runtimeSpecifier = runtimeSpecifier;
    this.formatted = options.format !== false && codeExtensions.has(extensionOf(path));
  }

  /** Appends one line made of `printables` (a tagged template works too: f.print`x = ${y};`); `print("")` is a blank line. */
  print(...printables: Printable[]): void;
  print(fragments: TemplateStringsArray, ...printables: Printable[]): void;
  print(first?: Printable | TemplateStringsArray, ...rest: Printable[]): void {
    if (this.#json) throw new PluginFileError(`${this.path}: print() after json(): a JSON file is one value`);
    const text = isTemplate(first)
      ? first.map((fragment, index) => fragment + (index < rest.length ? toText(rest[index]!) : "")).join("")
      : toText(first === undefined ? [] : [first, ...rest]);
    this.#printed = true;
    if (text === "") this.#writer.newLine();
    else this.#writer.writeLine(text);
  }

  /** Prints `open`, what `body` prints one level deeper, then `close`: a block of code. */
  block(open: Printable, body: () => void, close: Printable = "}"): void {
    this.print(open);
    this.#writer.indent(body);
    this.print(close);
  }

  /** Uses `name` from module `from` and returns the name to print; imported once, as a type only when only types use it. */
  import(name: string, from: string, options: { typeOnly?: boolean } = {}): string {
    const names = this.#imports.get(from) ?? new Map<string, boolean>();
    names.set(name, (names.get(name) ?? true) && options.typeOnly === true);
    this.#imports.set(from, names);
    return name;
  }

  /** A runtime symbol for generated code, from the runtime's entry that exports it (`--runtime`, default `@rcp-gen/runtime/codegen`). */
  runtime(symbol: RuntimeSymbol): string {
    return this.import(symbol, this.runtimeModule(symbol), { typeOnly: runtimeSymbols[symbol].kind === "type" });
  }

  /** The module a runtime symbol is imported from, for a file that writes its own import lines. */
  runtimeModule(symbol: RuntimeSymbol): string {
    return entrySpecifier(this.#runtimeSpecifier, runtimeSymbols[symbol].entry);
  }

  /**
   * A module of the same output to import from, relative to this file: `methods.ts` seen from
   * `docs/x.ts` is `../methods.js`.
   */
  relative(outputPath: string): string {
    const target = outputPath.replace(/\.([mc]?)ts$/, (_match, flavour: string) => `.${flavour}js`);
    const relative = posix.relative(posix.dirname(this.path), target);
    return relative.startsWith(".") ? relative : `./${relative}`;
  }

  /** A JSDoc block (or "" when there is nothing to say); print() indents it to the block it is in. */
  jsDoc(description: string | undefined, options: DocOptions = {}): string {
    const lines = docLines(description, options);
    if (lines.length === 0) return "";
    if (lines.length === 1) return `/** ${lines[0]} */`;
    return ["/**", ...lines.map((line) => (line.trim() === "" ? " *" : ` * ${line}`)), " */"].join("\n");
  }

  /** Makes the file one JSON document: `value` with the banner as its first member, `bannerKey`. */
  json(value: object, bannerKey = "$comment"): void {
    if (this.#printed) throw new PluginFileError(`${this.path}: json() after print(): a JSON file is one value`);
    this.#json = { value, bannerKey };
  }

  /**
   * Hands the file's syntax tree to `edit` (a ts-morph `SourceFile` of the printed text, imports
   * included) before it is formatted: for what plain printing cannot do, such as changing code
   * another part of the plugin printed. ts-morph, which bundles TypeScript, loads only for a run
   * that calls this.
   */
  editSource(edit: SourceEdit): void {
    if (!codeExtensions.has(extensionOf(this.path)))
      throw new PluginFileError(`${this.path}: editSource() edits TypeScript or JavaScript files only`);
    this.#edits.push(edit);
  }

  /** The file's text as printed: banner, imports, body, the source edits made; not yet formatted (run-plugins.ts formats it). */
  async render(banner: readonly string[]): Promise<string> {
    if (this.#json) {
      const { value, bannerKey } = this.#json;
      return `${JSON.stringify({ [bannerKey]: banner.join(" "), ...value }, null, 2)}\n`;
    }
    const style = styleOfExtension[extensionOf(this.path)];
    if (style === undefined)
      throw new PluginFileError(
        `${this.path}: rcp-gen marks every file it writes with a banner, and knows the comments of ${Object.keys(styleOfExtension).join(", ")} files (JSON: call json())`,
      );
    const text = [commentStyles[style]!(banner), ...this.#importDeclarations(), this.#writer.toString()].join("\n");
    return this.#edits.length === 0 ? text : editedSource(this.path, text, this.#edits);
  }

  #importDeclarations(): string[] {
    return [...this.#imports.keys()].sort().map((from) => {
      const names = [...this.#imports.get(from)!].sort(([a], [b]) => (a < b ? -1 : 1));
      const allTypes = names.every(([, typeOnly]) => typeOnly);
      const list = names.map(([name, typeOnly]) => (typeOnly && !allTypes ? `type ${name}` : name));
      return `${allTypes ? "import type" : "import"} { ${list.join(", ")} } from ${JSON.stringify(from)};`;
    });
  }
}

/** `text` as a ts-morph source file (in memory; nothing is read or written), changed by `edits` in turn. */
async function editedSource(path: string, text: string, edits: readonly SourceEdit[]): Promise<string> {
  const { Project } = await import("ts-morph");
  const source = new Project({ useInMemoryFileSystem: true }).createSourceFile(path, text);
  for (const edit of edits) await edit(source);
  return source.getFullText();
}

function extensionOf(path: string): string {
  return path.slice(path.lastIndexOf(".") + 1);
}

function isTemplate(value: unknown): value is TemplateStringsArray {
  return Array.isArray(value) && Object.hasOwn(value, "raw");
}

function toText(printable: Printable): string {
  return Array.isArray(printable) ? (printable as readonly Printable[]).map(toText).join("") : String(printable);
}

/**
 * The lines of a doc comment: the description, `@see` the section when it does not cite it, the
 * provenance; a star followed by a slash, which would end the comment, gets a backslash between them.
 */
export function docLines(description: string | undefined, { spec, from }: DocOptions): string[] {
  const paragraphs = [
    description ?? "",
    spec !== undefined && !(description ?? "").includes(spec) ? `@see RCP/1 ${spec}` : "",
    from !== undefined ? `@generated from ${from}` : "",
  ].filter((paragraph) => paragraph !== "");
  return paragraphs
    .flatMap((paragraph, index) => [...(index > 0 ? [""] : []), ...paragraph.split(/\r\n?|\n/)])
    .map((line) => line.replaceAll("*/", "*\\/"));
}
