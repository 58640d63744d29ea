/**
 * Which schemas a validator checks identically: the same keywords once annotations are left out,
 * each `$ref` read as the location it points to (or, inside its own file, as what it points to).
 * validators.ts compiles one function per identity and exports every other shape with that
 * identity as the same function, and the message validator binds their methods to it: a folder
 * whose vendor methods repeat retrieve's params compiles them once, not once per method.
 *
 * Conservative: a schema that uses anchors or dynamic references, or points into its own file
 * in a cycle, is identical only to itself.
 */
import { canonicalJson } from "../load/canonical-json.js";
import { readPointer } from "../load/json-pointer.js";
import type { LoadedSchemaFolder } from "../load/loaded-folder.js";
import { allShapes } from "./shapes.js";
import { asIs, validatedPart } from "./validation-key.js";

/** Keywords whose meaning depends on where the schema is, not only on what it says. */
const locationKeywords = new Set(["$anchor", "$dynamicAnchor", "$dynamicRef", "$recursiveAnchor", "$recursiveRef"]);

class OnlyItself extends Error {}

const representatives = new WeakMap<LoadedSchemaFolder, Map<string, string>>();

/**
 * The shape whose compiled validator checks what the shape at `ref` checks (`file#pointer`, or
 * `file` for a whole file): the first shape of the folder's fixed order (shapes.ts) with its
 * identity, so the choice never depends on which target asked first.
 */
export function representativeOf(folder: LoadedSchemaFolder, ref: string): string {
  let byRef = representatives.get(folder);
  if (!byRef) {
    byRef = new Map();
    const identities = new Identities(folder);
    const firsts = new Map<string, string>();
    for (const shape of allShapes(folder)) {
      const key = identities.keyOf(shape.ref.includes("#") ? shape.ref : `${shape.ref}#`);
      const first = key === null ? shape.ref : (firsts.get(key) ?? shape.ref);
      if (key !== null && !firsts.has(key)) firsts.set(key, shape.ref);
      byRef.set(shape.ref, first);
    }
    representatives.set(folder, byRef);
  }
  return byRef.get(ref) ?? ref;
}

/** Identity keys of a folder's locations, each computed once. */
class Identities {
  /** Location (`file#pointer`) -> its key, or null when it is identical only to itself. */
  readonly #keys = new Map<string, string | null>();
  /** Locations whose key is being computed: reaching one again is a cycle. */
  readonly #inProgress = new Set<string>();

  constructor(private readonly folder: LoadedSchemaFolder) {}

  keyOf(location: string): string | null {
    const known = this.#keys.get(location);
    if (known !== undefined) return known;
    if (this.#inProgress.has(location)) throw new OnlyItself();
    this.#inProgress.add(location);
    const [file = "", pointer = ""] = location.split("#");
    let key: string | null;
    try {
      key = canonicalJson(this.#rewritten(file, readPointer(this.folder.files.get(file), pointer)));
    } catch (error) {
      if (!(error instanceof OnlyItself)) throw error;
      key = null;
    } finally {
      this.#inProgress.delete(location);
    }
    this.#keys.set(location, key);
    return key;
  }

  /** The schema as a validator sees it: no annotations, references replaced by what they mean. */
  #rewritten(file: string, schema: unknown): unknown {
    return validatedPart(schema, (keyword, value) => {
      if (locationKeywords.has(keyword)) throw new OnlyItself();
      return keyword === "$ref" && typeof value === "string" ? this.#reference(file, value) : asIs;
    });
  }

  /** Another file's location as it is; a location in the same file as its own identity (the file is a clone's). */
  #reference(file: string, ref: string): unknown {
    const base = this.folder.idOf(file);
    const url = new URL(ref, base);
    const fragment = decodeURIComponent(url.hash.slice(1));
    if (fragment !== "" && !fragment.startsWith("/")) throw new OnlyItself();
    url.hash = "";
    // Every file's $id is one base followed by its path.
    const target = url.href.slice(base.length - file.length);
    if (target !== file) return `${target}#${fragment}`;
    const key = this.keyOf(`${file}#${fragment}`);
    if (key === null) throw new OnlyItself();
    return { same: key };
  }
}
