/**
 * The file helper every target writes through, built-in or a user's plugin (protoplugin's
 * `GeneratedFile`, in spirit): print lines, import symbols as they are used (collected, sorted,
 * type-only where only types are used), doc comments from schema descriptions with their
 * provenance, and, at the end, the DO-NOT-EDIT banner in the file's own comment syntax and one
 * formatting pass (prettier, for TypeScript and JavaScript).
 */
import { posix } from "node:path";
import { entrySpecifier, runtimeSymbols, type RuntimeSymbol } from "@rcp-gen/runtime/codegen-symbols";

/** What print() takes: text, numbers and booleans as written, lists one after the other. */
export type Printable = string | number | boolean | readonly Printable[];

/** How the banner is written, by file extension; JSON files take theirs as a member (json()). */
const commentStyles: Readonly<Record<string, (lines: readonly string[]) => string>> = {
  ts: (lines) => lines.map((line) => `// ${line}`).join("\n"),
  md: (lines) => `<!-- ${lines.join("\n     ")} -->`,
  yaml: (lines) => lines.map((line) => `# ${line}`).join("\n"),
};
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

export interface DocOptions {
  /** A spec section (`§7.7`), added as `@see RCP/1 §7.7` unless the text already cites it. */
  readonly spec?: string | undefined;
  /** Where it comes from, e.g. `methods/retrieve.json#/$defs/params`: an `@generated from` line. */
  readonly from?: string | undefined;
}

export interface NewFileOptions {
  /** Format with prettier (TypeScript and JavaScript only; default true). Off for machine code such as ajv's. */
  readonly format?: boolean;
}

export class PluginFileError extends Error {
  override name = "PluginFileError";
}

export class GeneratedFile {
  /** The path inside the output folder, posix, e.g. `client.ts` or `docs/retrieve.md`. */
  readonly path: string;
  readonly #runtimeSpecifier: string;
  readonly #format: boolean;
  readonly #lines: string[] = [];
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
    if (isTemplate(first)) {
      this.#lines.push(
        first.map((fragment, index) => fragment + (index < rest.length ? text(rest[index]!) : "")).join(""),
      );
      return;
    }
    this.#lines.push(first === undefined ? "" : text([first, ...rest]));
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
    if (lines.length === 1 && !lines[0]!.includes("*/")) return `${indent}/** ${lines[0]} */`;
    return [`${indent}/**`, ...lines.map((line) => `${indent} *${line === "" ? "" : ` ${line}`}`), `${indent} */`].join(
      "\n",
    );
  }

  /** Makes the file one JSON document: `value` with the banner as its first member, `bannerKey`. */
  json(value: object, bannerKey = "$comment"): void {
    if (this.#lines.length > 0)
      throw new PluginFileError(`${this.path}: json() after print(): a JSON file is one value`);
    this.#json = { value, bannerKey };
  }

  /** The file's final text: banner, imports, body; formatted once. */
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
    const imports = this.#importLines();
    const body = [...(imports === "" ? [] : [imports]), ...this.#lines].join("\n");
    const textOut = `${commentStyles[style]!(banner)}\n${body}\n`;
    return this.#format && formattedExtensions.has(extension) ? format(textOut) : textOut;
  }

  #importLines(): string {
    const specifiers = [...this.#imports.keys()].sort();
    return specifiers
      .map((from) => {
        const names = [...this.#imports.get(from)!].sort(([a], [b]) => (a < b ? -1 : 1));
        const allTypes = names.every(([, typeOnly]) => typeOnly);
        const list = names.map(([name, typeOnly]) => (typeOnly && !allTypes ? `type ${name}` : name)).join(", ");
        return `import ${allTypes ? "type " : ""}{ ${list} } from ${JSON.stringify(from)};`;
      })
      .join("\n");
  }
}

function isTemplate(value: unknown): value is TemplateStringsArray {
  return Array.isArray(value) && Object.hasOwn(value, "raw");
}

function text(printable: Printable): string {
  return Array.isArray(printable) ? printable.map(text).join("") : String(printable);
}

/** The lines of a doc comment: the description, `@see` the section when it does not cite it, the provenance. */
export function docLines(description: string | undefined, { spec, from }: DocOptions): string[] {
  const paragraphs = [
    description ?? "",
    spec !== undefined && !(description ?? "").includes(spec) ? `@see RCP/1 ${spec}` : "",
    from !== undefined ? `@generated from ${from}` : "",
  ].filter((paragraph) => paragraph !== "");
  return paragraphs.flatMap((paragraph, index) => [...(index > 0 ? [""] : []), ...paragraph.split("\n")]);
}
