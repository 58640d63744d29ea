/**
 * The one emit facade over ts-morph: a generated TypeScript module whose imports are
 * collected as symbols are used, whose declarations get doc comments from schema
 * descriptions, and which renders with the DO-NOT-EDIT banner, formatted by prettier.
 */
import { Project, type JSDocStructure, type OptionalKind, type SourceFile } from "ts-morph";
import { formatTypeScript } from "./format.js";
import { entrySpecifier, runtimeSymbols, type RuntimeSymbol } from "./runtime-symbols.js";

export interface EmitSettings {
  /** Import specifier of the runtime entry for generated code. */
  readonly runtimeSpecifier: string;
  /** Comment lines placed first in every file. */
  readonly banner: string;
}

export class GeneratedFile {
  readonly name: string;
  readonly source: SourceFile;
  readonly #settings: EmitSettings;
  /** module specifier -> imported name -> whether only its type is used */
  readonly #imports = new Map<string, Map<string, boolean>>();

  constructor(project: Project, name: string, settings: EmitSettings) {
    this.name = name;
    this.#settings = settings;
    this.source = project.createSourceFile(name, "", { overwrite: true });
  }

  /** Uses a runtime symbol, importing it as a value or a type as the symbol table says. */
  runtime(symbol: RuntimeSymbol): string {
    const { kind, entry } = runtimeSymbols[symbol];
    return this.use(entrySpecifier(this.#settings.runtimeSpecifier, entry), symbol, kind === "type");
  }

  /** Uses `name` from `specifier`; a name used once as a value is imported as a value. */
  use(specifier: string, name: string, typeOnly: boolean): string {
    const names = this.#imports.get(specifier) ?? new Map<string, boolean>();
    names.set(name, (names.get(name) ?? true) && typeOnly);
    this.#imports.set(specifier, names);
    return name;
  }

  async render(): Promise<string> {
    const specifiers = [...this.#imports.keys()].sort();
    this.source.insertImportDeclarations(
      0,
      specifiers.map((moduleSpecifier) => {
        const names = [...(this.#imports.get(moduleSpecifier) ?? new Map<string, boolean>())].sort(([a], [b]) =>
          a < b ? -1 : 1,
        );
        const allTypes = names.every(([, typeOnly]) => typeOnly);
        return {
          moduleSpecifier,
          isTypeOnly: allTypes,
          namedImports: names.map(([name, typeOnly]) => ({ name, isTypeOnly: typeOnly && !allTypes })),
        };
      }),
    );
    return formatTypeScript(`${this.#settings.banner}\n${this.source.getFullText()}`);
  }
}

/** A doc comment from a schema description (and a spec section, when known). */
export function docs(description: unknown, spec?: unknown): OptionalKind<JSDocStructure>[] {
  const described = typeof description === "string" ? description : "";
  const lines = [described, typeof spec === "string" && !described.includes(spec) ? `@see RCP/1 ${spec}` : ""];
  const text = lines.filter((line) => line !== "").join("\n\n");
  return text === "" ? [] : [{ description: text }];
}

export function newEmitProject(): Project {
  return new Project({ useInMemoryFileSystem: true, skipLoadingLibFiles: true });
}
