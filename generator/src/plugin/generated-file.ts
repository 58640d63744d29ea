/**
 * The file helper every target writes through, built-in or a user's plugin (protoplugin's
 * `GeneratedFile`, in spirit): print lines (and blocks, indented), import symbols as they are
 * used (collected, sorted, type-only where only types are used), doc comments from schema
 * descriptions with their provenance, and, at the end, the DO-NOT-EDIT banner in the file's own
 * comment syntax and the layout: prettier's, for TypeScript and JavaScript. The built-in targets
 * print their code already laid out (layout/: documents that break as prettier breaks them,
 * protobuf-es's way), so prettier runs only on a file whose layout they cannot vouch for.
 */
import { posix } from "node:path";
import { entrySpecifier, runtimeSymbols, type RuntimeSymbol } from "@rcp-gen/runtime/codegen-symbols";
import { hardline, indent, lines, literalline, type Doc } from "./layout/doc.js";
import { layOut } from "./layout/lay-out.js";
import { printDoc } from "./layout/print-doc.js";
import { importDeclaration } from "./layout/syntax.js";
import { prettierOptions } from "./prettier-options.js";

/**
 * What print() takes: text, numbers and booleans as written, lists one after the other, and the
 * layout documents of the built-in targets (layout/syntax.ts).
 */
export type Printable = string | number | boolean | Exclude<Doc, string | readonly Doc[]> | readonly Printable[];

/** How the banner is written, by file extension; JSON files take theirs as a member (json()). */
const commentStyles: Readonly<Record<string, (lines: readonly string[]) => string>> = {
  ts: (lines) => lineComments("//", lines),
  md: (lines) => `<!-- ${lines.join("\n     ")} -->`,
  yaml: (lines) => lineComments("#", lines),
};

/** Each line behind `mark`; a line break in a line (a path holding one) starts another comment, not code. */
function lineComments(mark: string, lines: readonly string[]): string {
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
const formattedExtensions = new Set(["ts", "mts", "cts", "js", "mjs", "cjs"]);

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
   * How TypeScript and JavaScript are laid out: `true` (the default), by prettier; `false`, as
   * printed (machine code such as ajv's); `"printed"`, as printed by layout documents, which lay
   * it out as prettier would: prettier then runs only when they cannot vouch for the text (a line
   * of code wider than prettier's 120 columns, a construct they do not model).
   */
  readonly format?: boolean | "printed";
}

export class PluginFileError extends Error {
  override name = "PluginFileError";
}

/** A file a plugin writes: printed line by line, with its imports collected at the top; `newFile` makes one. */
export class GeneratedFile {
  /** The path inside the output folder, posix, e.g. `client.ts` or `docs/retrieve.md`. */
  readonly path: string;
  readonly #runtimeSpecifier: string;
  readonly #format: boolean | "printed";
  /** What print() and block() made, one entry a print, each at its block depth; `undefined` is a blank line. */
  readonly #entries: Entry[] = [];
  #depth = 0;
  /** module specifier -> imported name -> whether only its type is used */
  readonly #imports = new Map<string, Map<string, boolean>>();
  #json: { value: object; bannerKey: string } | undefined;

  constructor(path: string, runtimeSpecifier: string, options: NewFileOptions = {}) {
    this.path = path;
    this.#runtimeSpecifier = runtimeSpecifier;
    this.#format = options.format ?? true;
  }

  /** Appends one line made of `printables` (a tagged template works too: f.print`x = ${y};`). */
  print(...printables: Printable[]): void;
  print(fragments: TemplateStringsArray, ...printables: Printable[]): void;
  print(first?: Printable | TemplateStringsArray, ...rest: Printable[]): void {
    if (this.#json) throw new PluginFileError(`${this.path}: print() after json(): a JSON file is one value`);
    if (typeof first === "string" && rest.length === 0) {
      // Plain text, often megabytes (ajv's code, json-schema-to-typescript's declarations): cut
      // into lines only if it is laid out.
      this.#entries.push({ depth: this.#depth, doc: first === "" ? undefined : first, plain: true });
      return;
    }
    const doc = isTemplate(first)
      ? first.flatMap((fragment, index) => [lines(fragment), ...(index < rest.length ? [toDoc(rest[index]!)] : [])])
      : toDoc(first === undefined ? [] : [first, ...rest]);
    this.#entries.push({ depth: this.#depth, doc: isEmpty(doc) ? undefined : doc });
  }

  /**
   * Prints `open`, what `body` prints one level deeper, then `close`: a block of code. A block
   * whose body prints nothing is `open` and `close` on one line (`class A {}`), as prettier has it.
   */
  block(open: Printable, body: () => void, close: Printable = "}"): void {
    this.print(open);
    const start = this.#entries.length;
    this.#depth += 1;
    try {
      body();
    } finally {
      this.#depth -= 1;
    }
    if (this.#entries.slice(start).some((entry) => entry.doc !== undefined)) {
      this.print(close);
      return;
    }
    this.#entries.splice(start);
    const opened = this.#entries.pop()!;
    this.#entries.push({ depth: opened.depth, doc: [docOf(opened) ?? "", toDoc(close)] });
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

  /** A JSDoc block (or "" when there is nothing to say), indented by `indent`. */
  jsDoc(description: string | undefined, options: DocOptions = {}, indent = ""): string {
    const lines = docLines(description, options);
    if (lines.length === 0) return "";
    if (lines.length === 1) return `${indent}/** ${lines[0]} */`;
    // Each line ends as prettier ends it in a JSDoc block: no trailing spaces but a Markdown hard break's two.
    const starred = (line: string) => {
      const text = line.trimEnd();
      return `${indent} *${text === "" ? "" : ` ${text}`}${text !== "" && line.endsWith("  ") ? "  " : ""}`;
    };
    return [`${indent}/**`, ...lines.map(starred), `${indent} */`].join("\n");
  }

  /** Makes the file one JSON document: `value` with the banner as its first member, `bannerKey`. */
  json(value: object, bannerKey = "$comment"): void {
    if (this.#entries.length > 0)
      throw new PluginFileError(`${this.path}: json() after print(): a JSON file is one value`);
    this.#json = { value, bannerKey };
  }

  /** The file's final text: banner, imports, body; laid out once. */
  async render(banner: readonly string[], format: (text: string) => Promise<string>): Promise<string> {
    if (this.#json) {
      const { value, bannerKey } = this.#json;
      return `${JSON.stringify({ [bannerKey]: banner.join(" "), ...value }, null, 2)}\n`;
    }
    const extension = this.path.slice(this.path.lastIndexOf(".") + 1);
    const style = styleOfExtension[extension];
    if (style === undefined)
      throw new PluginFileError(
        `${this.path}: rcp-gen marks every file it writes with a banner, and knows the comments of ${Object.keys(styleOfExtension).join(", ")} files (JSON: call json())`,
      );
    const bannerText = commentStyles[style]!(banner);
    const laidOutByPrettier = this.#format !== false && formattedExtensions.has(extension);
    if (this.#format === "printed" && laidOutByPrettier) {
      const printed = layOut(this.#document(bannerText, true), prettierOptions.printWidth);
      if (printed.unvouched === undefined) return `${printed.text}\n`;
    }
    // As printed, every group flat: prettier's input, or the file as written (Markdown, ajv's code).
    const textOut = `${this.#asPrinted(bannerText)}\n`;
    return laidOutByPrettier ? format(textOut) : textOut;
  }

  /** The entries joined as printed; plain text at the top level is taken as it is, uncut. */
  #asPrinted(bannerText: string): string {
    if (!this.#entries.every((entry) => entry.depth === 0 && (entry.plain || entry.doc === undefined)))
      return printDoc(this.#document(bannerText, false), Infinity).text;
    const imports = this.#importDeclarations().map((doc) => printDoc(doc, Infinity).text);
    return [bannerText, ...imports, ...this.#entries.map((entry) => entry.doc ?? "")].join("\n");
  }

  /**
   * The banner, the import declarations and what was printed, as one document. Laid out, blank
   * lines follow prettier (one at most, none at the start or end of a block); otherwise the
   * entries are joined as they were printed.
   */
  #document(bannerText: string, laidOut: boolean): Doc {
    const entries = [
      { depth: 0, doc: lines(bannerText) },
      ...this.#importDeclarations().map((doc) => ({ depth: 0, doc })),
      ...this.#entries.map((entry) => ({ depth: entry.depth, doc: docOf(entry) })),
    ];
    const kept = laidOut
      ? entries.filter((entry, index) => entry.doc !== undefined || keepsBlank(entries, index))
      : entries;
    return kept.map(({ depth, doc }, index) => {
      let nested: Doc = index === 0 ? (doc ?? "") : [laidOut ? hardline : literalline, doc ?? ""];
      for (let level = 0; level < depth; level += 1) nested = indent(nested);
      return nested;
    });
  }

  #importDeclarations(): Doc[] {
    return [...this.#imports.keys()].sort().map((from) => {
      const names = [...this.#imports.get(from)!].sort(([a], [b]) => (a < b ? -1 : 1));
      const allTypes = names.every(([, typeOnly]) => typeOnly);
      const list = names.map(([name, typeOnly]) => (typeOnly && !allTypes ? `type ${name}` : name));
      return importDeclaration(allTypes ? "import type" : "import", list, from);
    });
  }
}

/** One print() (or a collapsed block): `doc` undefined is a blank line; `plain`, a text not yet cut into lines. */
interface Entry {
  readonly depth: number;
  readonly doc: Doc | undefined;
  readonly plain?: true;
}

function docOf(entry: Entry): Doc | undefined {
  return entry.plain && typeof entry.doc === "string" ? lines(entry.doc) : entry.doc;
}

function isTemplate(value: unknown): value is TemplateStringsArray {
  return Array.isArray(value) && Object.hasOwn(value, "raw");
}

function toDoc(printable: Printable): Doc {
  if (Array.isArray(printable)) return (printable as readonly Printable[]).map(toDoc);
  if (typeof printable === "object") return printable as Doc;
  return lines(String(printable));
}

/** Whether prettier keeps the blank line at `index`: the first of a run, between two lines of one block. */
function keepsBlank(entries: readonly Entry[], index: number): boolean {
  const before = entries[index - 1];
  let next = index + 1;
  while (entries[next]?.doc === undefined && next < entries.length) next += 1;
  return before?.doc !== undefined && entries[next]?.depth === before.depth;
}

function isEmpty(doc: Doc): boolean {
  return doc === "" || (Array.isArray(doc) && (doc as readonly Doc[]).every(isEmpty));
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
