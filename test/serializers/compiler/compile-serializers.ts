/**
 * The serializer compiler: from JSON Schemas of result, progress and notification shapes to
 * the source of standalone functions that write a value of that shape as JSON text, with the
 * same output as the runtime's generic serialize() (runtime/src/protocol/serialize.ts) for every value,
 * valid or not. What the schema pins down is written by specialised code (member names as
 * literals, the expected kind tried first); everything else (unknown extra members, which §4.6 says must
 * survive, combinators, a value of an unexpected type) goes through the generic path. Members
 * are visited in the object's own order, so the text matches JSON.stringify's byte for byte.
 *
 * Its input is a bundled JSON Schema document. It lives with the tests, not in the generator:
 * bench scenario 11 weighs it against serialize(), and on Node 20 it is slower than V8's native
 * JSON.stringify (about 1.7x for a small retrieve result, 2x for a rich one), so no emitter
 * ships it; the scenario tells when a Node makes it worth moving into generator/ as a target.
 */
import { SERIALIZER_PRELUDE } from "./prelude.js";
import { SchemaIndex, nodeBase, type Located, type SchemaNode } from "./schema-index.js";

export interface SerializerShape {
  /** Name of the exported function, a JavaScript identifier. */
  readonly name: string;
  /** Absolute `$ref` of the shape's schema within the document. */
  readonly ref: string;
}

/**
 * JavaScript source declaring `export function <name>(value)` (returning JSON text) per shape,
 * after shared helpers: no imports, nothing run at load time but function declarations.
 */
export function compileSerializers(document: SchemaNode, shapes: readonly SerializerShape[]): string {
  const compiler = new Compiler(new SchemaIndex(document));
  const exports = shapes.map((shape) => {
    const writer = compiler.writerOf(compiler.index.resolve(shape.ref, compiler.index.rootBase));
    return `export function ${shape.name}(value) {\n  return ${writer}(value) ?? "null";\n}`;
  });
  return [SERIALIZER_PRELUDE, ...compiler.functions, ...exports].join("\n") + "\n";
}

/** What a schema node says about the values it admits, as far as writing them goes. */
type Kind = "string" | "number" | "boolean" | "null" | "object" | "array";

class Compiler {
  readonly functions: string[] = [];
  readonly #names = new Map<SchemaNode, string>();

  constructor(readonly index: SchemaIndex) {}

  /** The name of the function writing values of `located` (compiled once per schema node). */
  writerOf(located: Located): string {
    const target = this.#follow(located);
    const kinds = kindsOf(target.node);
    if (kinds === undefined) return "$any";
    const known = this.#names.get(target.node);
    if (known !== undefined) return known;
    const name = `$w${this.#names.size}`;
    // Named before compiling its body, so a recursive schema refers to itself.
    this.#names.set(target.node, name);
    this.functions.push(this.#writer(name, target, kinds));
    return name;
  }

  /** A node that is only a `$ref` (plus annotations) stands for its target. */
  #follow(located: Located): Located {
    let current = located;
    for (let hops = 0; typeof current.node.$ref === "string" && hops < 64; hops++) {
      if (Object.keys(current.node).some((key) => !ANNOTATIONS.has(key) && key !== "$ref")) break;
      current = this.index.resolve(current.node.$ref, current.base);
    }
    return current;
  }

  #writer(name: string, located: Located, kinds: readonly Kind[]): string {
    const cases = kinds.map((kind) => this.#case(kind, located));
    return `function ${name}(v) {\n${cases.join("\n")}\n  return $any(v);\n}`;
  }

  /** One `if` per admitted kind: its specialised writing, when `v` is of that kind. */
  #case(kind: Kind, located: Located): string {
    switch (kind) {
      case "string":
        return `  if (typeof v === "string") return JSON.stringify(v);`;
      case "number":
        return `  if (typeof v === "number") return Number.isFinite(v) ? "" + v : undefined;`;
      case "boolean":
        return `  if (v === true) return "true";\n  if (v === false) return "false";`;
      case "null":
        return `  if (v === null) return "null";`;
      case "array":
        return this.#arrayCase(located);
      case "object":
        return this.#objectCase(located);
    }
  }

  #arrayCase({ node, base }: Located): string {
    const items = node.items;
    const item =
      typeof items === "object" && items !== null ? this.writerOf({ node: items as SchemaNode, base }) : "$any";
    return `  if (Array.isArray(v)) {
    const n = v.length;
    if (n === 0) return "[]";
    let o = "[" + $element(${item}(v[0]), v[0]);
    for (let i = 1; i < n; i++) o += "," + $element(${item}(v[i]), v[i]);
    return o + "]";
  }`;
  }

  #objectCase({ node, base }: Located): string {
    const properties = (node.properties ?? {}) as Record<string, SchemaNode>;
    const members = Object.entries(properties).map(([key, schema]) => {
      const writer = this.writerOf({ node: schema, base: nodeBase(schema, base) });
      const literal = JSON.stringify(`,${JSON.stringify(key)}:`);
      return `      case ${JSON.stringify(key)}:\n        t = ${writer}(v[k]);\n        if (t !== undefined) o += ${literal} + t;\n        break;`;
    });
    return `  if (typeof v === "object" && v !== null && !Array.isArray(v) && $plain(v)) {
    let o = "";
    let t;
    for (const k in v) {
      switch (k) {
${members.join("\n")}
      default:
        t = $any(v[k]);
        if (t !== undefined) o += "," + JSON.stringify(k) + ":" + t;
      }
    }
    return o === "" ? "{}" : "{" + o.slice(1) + "}";
  }`;
  }
}

/** Keywords that say nothing about the value, so `{ $ref, description }` is just its target. */
const ANNOTATIONS = new Set([
  "description",
  "title",
  "$comment",
  "examples",
  "default",
  "deprecated",
  "readOnly",
  "writeOnly",
  "$id",
  "$schema",
  "$defs",
  "x-rcp",
]);

const KINDS: ReadonlySet<string> = new Set(["string", "number", "integer", "boolean", "null", "object", "array"]);

/**
 * The kinds a node's own `type` (or `const`/`enum`, or `properties`/`items`) admits; undefined
 * when it pins nothing down (no type, a combinator or a `$ref` beside other keywords), so its
 * values take the generic path. Never validates: a value of another kind is written generically.
 */
function kindsOf(node: SchemaNode): Kind[] | undefined {
  if (typeof node.$ref === "string" || node.anyOf || node.oneOf || node.not) return undefined;
  const declared = Array.isArray(node.type) ? node.type : typeof node.type === "string" ? [node.type] : undefined;
  if (declared !== undefined) {
    if (!declared.every((type) => typeof type === "string" && KINDS.has(type))) return undefined;
    return [...new Set(declared.map((type) => (type === "integer" ? "number" : type) as Kind))];
  }
  const values = "const" in node ? [node.const] : Array.isArray(node.enum) ? node.enum : undefined;
  if (values !== undefined && values.length > 0 && values.every((value) => typeof value === "string"))
    return ["string"];
  if (typeof node.properties === "object" && node.properties !== null) return ["object"];
  return undefined;
}
