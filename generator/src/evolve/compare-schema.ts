/**
 * Compares one schema of the old folder with its counterpart in the new one, keyword by
 * keyword, following `$ref` chains on both sides (into types/, capabilities.json, meta.json),
 * so a change is found where it is written, whichever file reaches it, and a schema moved
 * into types/ behind a `$ref` is the same schema. Each difference is a rule of rules.ts whose
 * severity depends on who reads the data (the direction). An absent keyword is read as
 * accepting everything, so adding one is a narrowing and removing it a widening.
 */
import { canonicalJson } from "../load/canonical-json.js";
import { appendPointer, isJsonObject, readPointer } from "../load/json-pointer.js";
import { schemaIdBase, type LoadedSchemaFolder } from "../load/loader.js";
import { walkSchema } from "../load/schema-walk.js";
import type { FindingSet } from "./findings.js";
import { folderRules, schemaRules, severityOf, type Direction, type SchemaRuleId } from "./rules.js";

type Schema = Record<string, unknown>;

/** One place in one folder: the schema found there. */
export interface Place {
  readonly folder: LoadedSchemaFolder;
  readonly file: string;
  readonly pointer: string;
}

export interface Comparison {
  readonly findings: FindingSet;
  /** Who reaches the schema compared, e.g. `retrieve result`. */
  readonly via: string;
  readonly direction: Direction;
  /** Whether the root's own title is documentation only (a method shape's type is named after its wire name). */
  readonly rootTitleIsDoc?: boolean;
  /** Collects `file#pointer` of every schema of the new folder compared. */
  readonly reached?: Set<string>;
  /** Whether a file, and every file its `$ref`s reach, is the same in both folders: nothing in it can differ. */
  readonly settled?: (file: string) => boolean;
}

/** Keywords that say nothing about which values are valid. */
const annotations = new Set([
  "description",
  "$comment",
  "examples",
  "default",
  "deprecated",
  "readOnly",
  "writeOnly",
  "contentMediaType",
  "contentEncoding",
]);
/** Where a schema sits, not what it says: the loader assigns every file's `$id` from its path. */
const placement = new Set(["$schema", "$id"]);
const lowerBounds = ["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties", "minContains"];
const upperBounds = ["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties", "maxContains"];
/** Handled together elsewhere in compareResolved. */
const handled = new Set([
  "title",
  "type",
  "enum",
  "const",
  "required",
  "properties",
  "patternProperties",
  "additionalProperties",
  "unevaluatedProperties",
  "items",
  "prefixItems",
  "contains",
  "oneOf",
  "anyOf",
  "allOf",
  "then",
  "else",
  "pattern",
  "format",
  "multipleOf",
  "$defs",
  "definitions",
  "x-rcp",
  "$ref",
  "$anchor",
  ...lowerBounds,
  ...upperBounds,
]);
/** Constraints compared as a whole: any difference is `condition-changed`. */
const wholeConstraints = new Set([
  "if",
  "not",
  "dependentRequired",
  "dependentSchemas",
  "propertyNames",
  "uniqueItems",
  "unevaluatedItems",
  "contentSchema",
  "$dynamicRef",
  "$dynamicAnchor",
]);

export function compareSchemas(old: Place, next: Place, comparison: Comparison): void {
  new Walk(comparison).compare(old, next, true);
}

class Walk {
  readonly #visited = new Set<string>();
  constructor(private readonly comparison: Comparison) {}

  compare(old: Place, next: Place, isRoot = false): void {
    if (old.file === next.file && old.pointer === next.pointer && this.comparison.settled?.(next.file)) {
      this.comparison.reached?.add(`${next.file}#${next.pointer}`);
      return;
    }
    const oldNode = schemaAt(old);
    const newNode = schemaAt(next);
    this.#annotationsAt(oldNode, newNode, next, isRoot);
    const [oldTarget, newTarget] = [dereference(old), dereference(next)];
    const key = `${oldTarget.place.file}#${oldTarget.place.pointer}|${newTarget.place.file}#${newTarget.place.pointer}`;
    if (this.#visited.has(key)) return;
    this.#visited.add(key);
    this.comparison.reached
      ?.add(`${next.file}#${next.pointer}`)
      .add(`${newTarget.place.file}#${newTarget.place.pointer}`);
    // What a $ref points to carries its own annotations; the use site's were compared above.
    if (oldTarget.place !== old || newTarget.place !== next)
      this.#annotationsAt(oldTarget.schema, newTarget.schema, newTarget.place, false);
    this.#compareResolved(oldTarget.schema, newTarget.schema, oldTarget.place, newTarget.place);
  }

  #report(rule: SchemaRuleId, place: Place, tokens: readonly (string | number)[], message: string): void {
    const { findings, via, direction } = this.comparison;
    // A member a result must now carry breaks no deployed reader, but every handler's code.
    const inOutput = rule === "required-added" && direction === "output";
    findings.add(
      {
        rule: inOutput ? "required-added-in-output" : rule,
        severity: inOutput
          ? folderRules["required-added-in-output"].severity
          : severityOf(schemaRules[rule].kind, direction),
        file: place.file,
        pointer: tokens.reduce<string>(appendPointer, place.pointer),
        message,
      },
      via,
    );
  }

  #annotationsAt(oldNode: Schema, newNode: Schema, place: Place, isRoot: boolean): void {
    for (const keyword of new Set([...Object.keys(oldNode), ...Object.keys(newNode)])) {
      if (keyword !== "title" && !annotations.has(keyword) && !keyword.startsWith("x-")) continue;
      if (keyword === "x-rcp" || canonicalJson(oldNode[keyword]) === canonicalJson(newNode[keyword])) continue;
      if (keyword === "title") {
        // A types/ file's title is judged by the folder comparison (type-renamed / type-removed).
        if (place.pointer === "" && place.file.startsWith("types/")) continue;
        if (isRoot && this.comparison.rootTitleIsDoc)
          this.#report("doc-changed", place, ["title"], changedText("title", oldNode, newNode));
        else if (oldNode["title"] !== undefined && newNode["title"] !== undefined)
          this.comparison.findings.add(
            {
              rule: "type-renamed",
              severity: "code",
              file: place.file,
              pointer: appendPointer(place.pointer, "title"),
              message: `type ${oldNode["title"] as string} is now ${newNode["title"] as string}`,
            },
            this.comparison.via,
          );
        else this.#report("doc-changed", place, ["title"], changedText("title", oldNode, newNode));
        continue;
      }
      this.#report("doc-changed", place, [keyword], changedText(keyword, oldNode, newNode));
    }
  }

  #compareResolved(old: Schema, next: Schema, oldPlace: Place, newPlace: Place): void {
    this.#types(old, next, newPlace);
    this.#values(old, next, newPlace);
    this.#bounds(old, next, newPlace);
    this.#patterns(old, next, newPlace);
    this.#members(old, next, oldPlace, newPlace);
    this.#arrays(old, next, oldPlace, newPlace);
    this.#alternatives(old, next, oldPlace, newPlace);
    this.#conditionals(old, next, oldPlace, newPlace);
    for (const keyword of new Set([...Object.keys(old), ...Object.keys(next)])) {
      if (handled.has(keyword) || annotations.has(keyword) || placement.has(keyword) || keyword.startsWith("x-"))
        continue;
      if (canonicalJson(old[keyword]) === canonicalJson(next[keyword])) continue;
      const rule = wholeConstraints.has(keyword) ? "condition-changed" : "unclassified-change";
      this.#report(rule, newPlace, [keyword], changedText(keyword, old, next));
    }
    if (canonicalJson(old["x-rcp"]) !== canonicalJson(next["x-rcp"])) this.#typeAnnotation(old, next, newPlace);
  }

  /** A shared type's x-rcp block: its kind and spec are bookkeeping, its role names a validator of the generated descriptor. */
  #typeAnnotation(old: Schema, next: Schema, place: Place): void {
    const [a, b] = [asObject(old["x-rcp"]), asObject(next["x-rcp"])];
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      if (canonicalJson(a[key]) === canonicalJson(b[key])) continue;
      const pointer = appendPointer(appendPointer(place.pointer, "x-rcp"), key);
      if (key === "role") {
        const rule = a[key] === undefined ? "type-role-added" : "type-role-changed";
        this.comparison.findings.add(
          {
            rule,
            severity: folderRules[rule].severity,
            file: place.file,
            pointer,
            message: changedText(key, a, b),
          },
          this.comparison.via,
        );
      } else
        this.#report(
          key === "spec" || key === "kind" ? "doc-changed" : "unclassified-change",
          place,
          ["x-rcp", key],
          changedText(key, a, b),
        );
    }
  }

  #types(old: Schema, next: Schema, place: Place): void {
    const [before, after] = [typesOf(old), typesOf(next)];
    const lost = [...before].filter((type) => !covers(after, type));
    const gained = [...after].filter((type) => !covers(before, type));
    if (lost.length > 0) this.#report("type-narrowed", place, ["type"], `no longer accepts ${lost.join(", ")}`);
    if (gained.length > 0) this.#report("type-widened", place, ["type"], `now also accepts ${gained.join(", ")}`);
  }

  #values(old: Schema, next: Schema, place: Place): void {
    const [before, after] = [valuesOf(old), valuesOf(next)];
    if (before === undefined && after === undefined) return;
    const keyword = next["enum"] !== undefined || old["enum"] !== undefined ? "enum" : "const";
    if (before === undefined)
      return this.#report("enum-narrowed", place, [keyword], `now only ${[...after!].join(", ")}`);
    if (after === undefined)
      return this.#report("enum-widened", place, [keyword], `no longer limited to ${[...before].join(", ")}`);
    const removed = [...before].filter((value) => !after.has(value));
    const added = [...after].filter((value) => !before.has(value));
    if (removed.length > 0) this.#report("enum-narrowed", place, [keyword], `no longer accepts ${removed.join(", ")}`);
    if (added.length > 0) this.#report("enum-widened", place, [keyword], `now also accepts ${added.join(", ")}`);
  }

  #bounds(old: Schema, next: Schema, place: Place): void {
    const compareBound = (keyword: string, tighter: (a: number, b: number) => boolean) => {
      const [a, b] = [old[keyword], next[keyword]];
      if (a === b || (typeof a !== "number" && typeof b !== "number")) return;
      const text = `${keyword} ${typeof a === "number" ? a : "none"} -> ${typeof b === "number" ? b : "none"}`;
      if (typeof a !== "number") this.#report("range-narrowed", place, [keyword], text);
      else if (typeof b !== "number") this.#report("range-widened", place, [keyword], text);
      else this.#report(tighter(a, b) ? "range-narrowed" : "range-widened", place, [keyword], text);
    };
    for (const keyword of lowerBounds) compareBound(keyword, (a, b) => b > a);
    for (const keyword of upperBounds) compareBound(keyword, (a, b) => b < a);
    // A new multiple of the old one accepts less; anything else accepts other values.
    compareBound("multipleOf", (a, b) => Number.isInteger(b / a));
  }

  #patterns(old: Schema, next: Schema, place: Place): void {
    for (const keyword of ["pattern", "format"]) {
      const [a, b] = [old[keyword], next[keyword]];
      if (a === b) continue;
      const text = `${keyword} ${JSON.stringify(a) ?? "none"} -> ${JSON.stringify(b) ?? "none"}`;
      const rule = a === undefined ? "pattern-narrowed" : b === undefined ? "pattern-widened" : "pattern-changed";
      this.#report(rule, place, [keyword], text);
    }
  }

  #members(old: Schema, next: Schema, oldPlace: Place, newPlace: Place): void {
    const [requiredBefore, requiredAfter] = [new Set(stringsOf(old["required"])), new Set(stringsOf(next["required"]))];
    for (const name of requiredAfter)
      if (!requiredBefore.has(name))
        this.#report("required-added", newPlace, ["required"], `"${name}" is now required`);
    for (const name of requiredBefore)
      if (!requiredAfter.has(name))
        this.#report(
          "required-removed",
          newPlace,
          ["required"],
          `"${name}" is no longer required${propertyOf(next, name) === undefined ? " (removed)" : ""}`,
        );
    for (const keyword of ["properties", "patternProperties"]) {
      const [before, after] = [asObject(old[keyword]), asObject(next[keyword])];
      for (const name of Object.keys(before))
        if (!Object.hasOwn(after, name))
          this.#report("member-removed", newPlace, [keyword, name], `"${name}" was removed`);
      for (const name of Object.keys(after)) {
        if (!Object.hasOwn(before, name)) {
          // A new required member is reported by required-added; the member itself adds nothing else.
          this.#report("member-added", newPlace, [keyword, name], `"${name}" was added`);
          continue;
        }
        this.compare(at(oldPlace, keyword, name), at(newPlace, keyword, name));
      }
    }
    for (const keyword of ["additionalProperties", "unevaluatedProperties"])
      this.#additional(old, next, oldPlace, newPlace, keyword);
  }

  /** Unknown members: lifting `false` is §4.6's own rule; a map's value schema is compared as any schema. */
  #additional(old: Schema, next: Schema, oldPlace: Place, newPlace: Place, keyword: string): void {
    const [a, b] = [old[keyword], next[keyword]];
    if (canonicalJson(a) === canonicalJson(b)) return;
    if (a === false)
      return this.#report(
        "additional-members-allowed",
        newPlace,
        [keyword],
        `${keyword} false -> ${JSON.stringify(b) ?? "none"}`,
      );
    if (b === false)
      return this.#report("additional-properties-narrowed", newPlace, [keyword], `${keyword} is now false`);
    if (a === undefined || a === true || b === undefined || b === true) {
      const narrowed = a === undefined || a === true;
      return this.#report(
        narrowed ? "additional-properties-narrowed" : "additional-properties-widened",
        newPlace,
        [keyword],
        narrowed
          ? `values of unnamed members are now constrained`
          : `values of unnamed members are no longer constrained`,
      );
    }
    this.compare(at(oldPlace, keyword), at(newPlace, keyword));
  }

  #arrays(old: Schema, next: Schema, oldPlace: Place, newPlace: Place): void {
    for (const keyword of ["items", "contains"]) this.#optionalSubschema(old, next, oldPlace, newPlace, [keyword]);
    const [before, after] = [listOf(old["prefixItems"]), listOf(next["prefixItems"])];
    for (let index = 0; index < Math.max(before.length, after.length); index += 1)
      this.#optionalSubschema(old, next, oldPlace, newPlace, ["prefixItems", index]);
  }

  /** A subschema that may be absent on one side, where absent accepts everything. */
  #optionalSubschema(
    old: Schema,
    next: Schema,
    oldPlace: Place,
    newPlace: Place,
    tokens: readonly (string | number)[],
  ): void {
    const pointer = tokens.reduce<string>(appendPointer, "");
    if (readPointer(old, pointer) === undefined && readPointer(next, pointer) === undefined) return;
    const path = tokens.map(String);
    this.compare(at(oldPlace, ...path), at(newPlace, ...path));
  }

  /**
   * oneOf/anyOf: alternatives written identically pair first, then those of the same kind
   * (type, const, $ref target); an alternative left over was added or removed.
   */
  #alternatives(old: Schema, next: Schema, oldPlace: Place, newPlace: Place): void {
    for (const keyword of ["oneOf", "anyOf"]) {
      const [a, b] = [old[keyword], next[keyword]];
      if (a === undefined && b === undefined) continue;
      if (a === undefined || b === undefined) {
        this.#report(
          a === undefined ? "alternative-removed" : "alternative-added",
          newPlace,
          [keyword],
          a === undefined ? `${keyword} introduced` : `${keyword} dropped`,
        );
        continue;
      }
      const before = listOf(a).map((_, index) => at(oldPlace, keyword, String(index)));
      const after = listOf(b).map((_, index) => at(newPlace, keyword, String(index)));
      const pairs: [Place, Place][] = [];
      for (const signature of [exactSignature, kindSignature])
        for (const oldAlternative of [...before]) {
          const index = after.findIndex((candidate) => signature(candidate) === signature(oldAlternative));
          if (index < 0) continue;
          pairs.push([oldAlternative, after[index]!]);
          before.splice(before.indexOf(oldAlternative), 1);
          after.splice(index, 1);
        }
      for (const removed of before)
        this.#report(
          "alternative-removed",
          newPlace,
          [keyword],
          `alternative ${removed.pointer.split("/").pop()} (${describe(removed)}) was removed`,
        );
      for (const added of after)
        this.#report("alternative-added", added, [], `alternative ${describe(added)} was added`);
      for (const [oldAlternative, newAlternative] of pairs) this.compare(oldAlternative, newAlternative);
    }
    const [before, after] = [listOf(old["allOf"]), listOf(next["allOf"])];
    for (let index = 0; index < Math.max(before.length, after.length); index += 1)
      this.#optionalSubschema(old, next, oldPlace, newPlace, ["allOf", index]);
  }

  /** if/then/else: a changed condition is `condition-changed` (via wholeConstraints); its branches are compared. */
  #conditionals(old: Schema, next: Schema, oldPlace: Place, newPlace: Place): void {
    for (const keyword of ["then", "else"]) this.#optionalSubschema(old, next, oldPlace, newPlace, [keyword]);
  }
}

function schemaAt(place: Place): Schema {
  // Absent (a keyword one side does not have) accepts everything, as `true` does.
  const node = readPointer(place.folder.files.get(place.file), place.pointer);
  if (node === true || node === undefined) return {};
  if (node === false) return { not: {} };
  return isJsonObject(node) ? node : {};
}

function at(place: Place, ...tokens: string[]): Place {
  return { ...place, pointer: tokens.reduce(appendPointer, place.pointer) };
}

/** Follows `$ref`s to the schema that validates; other keywords beside a $ref are read as applying with it. */
function dereference(place: Place): { place: Place; schema: Schema } {
  let current = place;
  let schema = schemaAt(place);
  const siblings: Schema = {};
  for (let hops = 0; typeof schema["$ref"] === "string" && hops < 64; hops += 1) {
    const { $ref, ...rest } = schema;
    for (const [keyword, value] of Object.entries(rest))
      if (!annotations.has(keyword) && keyword !== "title" && !(keyword in siblings)) siblings[keyword] = value;
    const target = resolveRef(current.folder, current.file, $ref);
    if (target === undefined) break;
    current = target;
    schema = schemaAt(target);
  }
  return {
    place: current,
    schema: Object.keys(siblings).length === 0 ? schema : { ...schema, ...siblings },
  };
}

function resolveRef(folder: LoadedSchemaFolder, file: string, ref: string): Place | undefined {
  const url = new URL(ref, folder.idOf(file));
  const fragment = decodeURIComponent(url.hash.slice(1));
  url.hash = "";
  const target = url.href.slice(schemaIdBase.length);
  const document = folder.files.get(target);
  if (document === undefined) return undefined;
  if (fragment === "" || fragment.startsWith("/")) return { folder, file: target, pointer: fragment };
  let anchored: string | undefined;
  walkSchema(document, (schema, pointer) => {
    if (isJsonObject(schema) && schema["$anchor"] === fragment) anchored ??= pointer;
  });
  return anchored === undefined ? undefined : { folder, file: target, pointer: anchored };
}

const allTypes = ["null", "boolean", "object", "array", "number", "string"];

function typesOf(schema: Schema): Set<string> {
  const type = schema["type"];
  if (typeof type === "string") return new Set([type]);
  if (Array.isArray(type)) return new Set(type.filter((entry): entry is string => typeof entry === "string"));
  return new Set(allTypes);
}

/** integer is part of number. */
function covers(types: ReadonlySet<string>, type: string): boolean {
  return types.has(type) || (type === "integer" && types.has("number"));
}

function valuesOf(schema: Schema): Set<string> | undefined {
  if (schema["const"] !== undefined) return new Set([canonicalJson(schema["const"])]);
  if (Array.isArray(schema["enum"])) return new Set(schema["enum"].map(canonicalJson));
  return undefined;
}

function exactSignature(place: Place): string {
  return `exact:${canonicalJson(schemaAt(place))}`;
}

/** What kind of value an alternative is: its type and const, or its $ref's target file. */
function kindSignature(place: Place): string {
  const target = dereference(place);
  const { schema } = target;
  return canonicalJson({
    type: schema["type"],
    const: schema["const"],
    ref: typeof schemaAt(place)["$ref"] === "string" ? target.place.file : undefined,
    title: schema["title"],
  });
}

function describe(place: Place): string {
  const schema = schemaAt(place);
  if (typeof schema["$ref"] === "string") return `$ref ${schema["$ref"]}`;
  if (schema["const"] !== undefined) return `const ${JSON.stringify(schema["const"])}`;
  if (schema["type"] !== undefined) return `type ${JSON.stringify(schema["type"])}`;
  return canonicalJson(schema).slice(0, 60);
}

function changedText(keyword: string, old: Schema, next: Schema): string {
  const shown = (value: unknown) => (value === undefined ? "none" : clip(JSON.stringify(value)));
  return `${keyword} ${shown(old[keyword])} -> ${shown(next[keyword])}`;
}

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

function asObject(value: unknown): Schema {
  return isJsonObject(value) ? value : {};
}

function listOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function stringsOf(value: unknown): string[] {
  return listOf(value).filter((entry): entry is string => typeof entry === "string");
}

function propertyOf(schema: Schema, name: string): unknown {
  return asObject(schema["properties"])[name];
}
