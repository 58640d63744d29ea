/**
 * Names for the schemas the docs targets refer to, and `$ref` resolution inside the schema
 * folder: a shape by its TypeScript name (RetrieveParams, Hit), any other definition by its
 * `title`, else by its file and definition (`FilterClauseLeaf`). The same names as types.ts
 * where types.ts has one, so a reader meets one name per thing.
 */
import { isJsonObject } from "../../load/json-pointer.js";
import { schemaIdBase } from "../../load/loader.js";
import type { JsonSchema } from "../../load/meta-schema/schema-files.js";
import type { RcpModel } from "../../model/model.js";
import { pascalName } from "../../model/naming.js";

export interface Location {
  readonly file: string;
  readonly pointer: string;
}

/** Where a `$ref` written in `from` points, inside the folder. */
export function resolveRef(model: RcpModel, from: string, ref: string): Location {
  const url = new URL(ref, model.schema.idOf(from));
  const pointer = decodeURIComponent(url.hash.slice(1));
  url.hash = "";
  return { file: url.href.slice(schemaIdBase.length), pointer };
}

/** The schema at a location, following `$ref`s that stand alone (`{ "$ref": ... }` and annotations). */
export function dereference(model: RcpModel, at: Location): { at: Location; schema: JsonSchema | boolean | undefined } {
  let location = at;
  for (let hops = 0; hops < 32; hops += 1) {
    const schema = model.schemaAt(location.file, location.pointer);
    const ref = isJsonObject(schema) ? schema["$ref"] : undefined;
    if (typeof ref !== "string" || !isJsonObject(schema) || Object.keys(schema).some((key) => !refSiblings.has(key)))
      return { at: location, schema };
    location = resolveRef(model, location.file, ref);
  }
  return { at: location, schema: undefined };
}

/** Keywords beside a `$ref` that add nothing a reader of the target would miss. */
const refSiblings = new Set(["$ref", "description", "title", "$comment", "examples"]);

/** Gives each location one name, unique across a document. */
export class SchemaNames {
  readonly #byLocation = new Map<string, string>();
  readonly #taken = new Set<string>();

  constructor(private readonly model: RcpModel) {
    for (const shape of model.shapes) this.#claim(`${shape.file}#${shape.pointer}`, shape.typeName);
  }

  nameOf(at: Location): string {
    const key = `${at.file}#${at.pointer}`;
    const known = this.#byLocation.get(key);
    if (known !== undefined) return known;
    const schema = this.model.schemaAt(at.file, at.pointer);
    const title = isJsonObject(schema) ? schema.title : undefined;
    const candidates = [
      ...(typeof title === "string" && /^[A-Z][A-Za-z0-9]*$/.test(title) ? [title] : []),
      `${this.#fileName(at.file)}${pascalName(at.pointer.split("/").at(-1) ?? "")}`,
    ];
    const free = candidates.find((name) => !this.#taken.has(name));
    let name = free ?? candidates.at(-1)!;
    for (let index = 2; free === undefined && this.#taken.has(name); index += 1) name = `${candidates.at(-1)}${index}`;
    this.#claim(key, name);
    return name;
  }

  #fileName(file: string): string {
    const document = this.model.schemaAt(file, "");
    const title = isJsonObject(document) ? document.title : undefined;
    return typeof title === "string" && /^[A-Z][A-Za-z0-9]*$/.test(title)
      ? title
      : pascalName(
          file
            .replace(/\.json$/, "")
            .split("/")
            .at(-1) ?? file,
        );
  }

  #claim(key: string, name: string): void {
    this.#byLocation.set(key, name);
    this.#taken.add(name);
  }
}
