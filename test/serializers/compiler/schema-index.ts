/**
 * Resolves `$ref`s inside one bundled JSON Schema document (the shape `bundleSchema` writes:
 * every file embedded under `$defs` with its own `$id`, refs relative to it), so the serializer
 * compiler can follow a reference to the schema node it names, from any base URI.
 */
export type SchemaNode = Readonly<Record<string, unknown>>;

/** A schema node and the base URI its own relative refs resolve against. */
export interface Located {
  readonly node: SchemaNode;
  readonly base: string;
}

/** A base for documents without a root `$id`, so relative refs still resolve. */
const DEFAULT_BASE = "urn:rcp-gen:serializer-root";

export class SchemaIndex {
  readonly #resources = new Map<string, SchemaNode>();
  readonly rootBase: string;

  constructor(document: SchemaNode) {
    this.rootBase = typeof document.$id === "string" ? document.$id : DEFAULT_BASE;
    this.#collect(document, this.rootBase);
  }

  /** The node `ref` names, seen from `base`; an error names the reference it could not follow. */
  resolve(ref: string, base: string): Located {
    const url = new URL(ref, base);
    const pointer = decodeURIComponent(url.hash.replace(/^#/, ""));
    url.hash = "";
    const resource = this.#resources.get(url.href);
    const node = resource === undefined ? undefined : readPointer(resource, pointer);
    if (typeof node !== "object" || node === null)
      throw new Error(`serializer: cannot resolve $ref ${ref} from ${base}`);
    return { node: node as SchemaNode, base: nodeBase(node as SchemaNode, url.href) };
  }

  #collect(node: unknown, base: string): void {
    if (typeof node !== "object" || node === null) return;
    if (Array.isArray(node)) {
      for (const item of node) this.#collect(item, base);
      return;
    }
    const schema = node as SchemaNode;
    const own = nodeBase(schema, base);
    if (own !== base || this.#resources.size === 0) this.#resources.set(own, schema);
    for (const value of Object.values(schema)) this.#collect(value, own);
  }
}

/** The base URI inside `node`: its own `$id` (resolved against `base`) or the enclosing one. */
export function nodeBase(node: SchemaNode, base: string): string {
  return typeof node.$id === "string" ? new URL(node.$id, base).href.replace(/#$/, "") : base;
}

/** The node at an RFC 6901 pointer (`/$defs/result`) inside `document`, or undefined. */
function readPointer(document: unknown, pointer: string): unknown {
  let node = document;
  for (const token of pointer === "" ? [] : pointer.slice(1).split("/")) {
    const key = token.replaceAll("~1", "/").replaceAll("~0", "~");
    if (typeof node !== "object" || node === null || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}
