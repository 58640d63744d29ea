/**
 * The query conform's retrieval calls send, chosen from the project before the main phase:
 *   1. the one the user gave: `--query`, else `conform.query` in the project's settings;
 *   2. else the first of these the engine finds hits for: the `query` of each example of
 *      retrieve's params (the examples folder's, else the schema's own `examples`), then "retrieval";
 *      the level checks then query words of that query's first hit, which every mode finds;
 *   3. else (nothing found) the first of them, and the checks whose evidence is hits report
 *      "inconclusive: no hits for ...", not a failure.
 */
import { examplesOf, type ExampleSet } from "../targets/shared/examples.js";
import { readPointer } from "../load/json-pointer.js";
import type { LoadedSchemaFolder } from "../load/loader.js";
import type { JsonSchema } from "../load/meta-schema/schema-files.js";
import { inconclusive, type Verdict } from "./verdict.js";

/** Where the query of retrieval calls came from, and what the engine made of it. */
export interface ProbeQuery {
  /** The query of probes and of most retrieval calls. */
  readonly text: string;
  /** Where it came from: `--query`, `conform.query in rcp-gen.config.json`, an example's source, or `the default`. */
  readonly source: string;
  /** The user chose it: every call sends it as it is. */
  readonly given: boolean;
  /** Whether the engine found hits for it (undefined: not asked, as retrieve is not advertised). */
  readonly found?: boolean;
  /** The other candidates asked, when none found anything. */
  readonly alsoTried?: readonly string[];
  /** The query of the level checks: `text` when given or when nothing was found, else words of its first hit. */
  readonly levelQuery: string;
}

const DEFAULT_QUERY = "retrieval";
/** Candidates asked at most, so a long examples folder does not turn into a long wait. */
const MAX_CANDIDATES = 5;

interface Candidate {
  readonly text: string;
  readonly source: string;
}

/** The query to start from: the one given, else the first candidate, not yet asked. */
export function givenOrFirst(
  given: { text: string; source: string } | undefined,
  folder: LoadedSchemaFolder,
  examples: ExampleSet | undefined,
): ProbeQuery {
  if (given !== undefined) return { ...given, given: true, levelQuery: given.text };
  const [first] = candidates(folder, examples);
  return { ...first!, given: false, levelQuery: first!.text };
}

/**
 * Asks the engine with each candidate in turn (`ask` returns the text of the first hit, "" for
 * a hit without text, undefined for none) and keeps the first it finds hits for.
 */
export async function chooseQuery(
  given: { text: string; source: string } | undefined,
  folder: LoadedSchemaFolder,
  examples: ExampleSet | undefined,
  ask: (query: string) => Promise<string | undefined>,
): Promise<ProbeQuery> {
  if (given !== undefined) return givenOrFirst(given, folder, examples);
  const tried = candidates(folder, examples).slice(0, MAX_CANDIDATES);
  for (const candidate of tried) {
    const firstHit = await ask(candidate.text);
    if (firstHit === undefined) continue;
    const words = firstHit
      .split(/\W+/)
      .filter((word) => word.length > 3)
      .slice(0, 3);
    return { ...candidate, given: false, found: true, levelQuery: words.length > 0 ? words.join(" ") : candidate.text };
  }
  const [first, ...others] = tried;
  return {
    ...first!,
    given: false,
    found: false,
    levelQuery: first!.text,
    ...(others.length === 0 ? {} : { alsoTried: others.map((candidate) => candidate.text) }),
  };
}

/** The verdict of a check whose evidence is hits, when `query` found none (`where`: e.g. "in sparse mode"). */
export function noHits(query: string, where?: string): Verdict {
  return inconclusive(
    `no hits for "${query}"${where === undefined ? "" : ` ${where}`}, set conform.query (or --query)`,
  );
}

function candidates(folder: LoadedSchemaFolder, examples: ExampleSet | undefined): Candidate[] {
  const seen = new Set<string>();
  const found: Candidate[] = [];
  for (const candidate of [...exampleQueries(folder, examples), { text: DEFAULT_QUERY, source: "the default" }]) {
    if (seen.has(candidate.text)) continue;
    seen.add(candidate.text);
    found.push(candidate);
  }
  return found;
}

/** The string `query` of each example of retrieve's params, with where it was read. */
function exampleQueries(folder: LoadedSchemaFolder, examples: ExampleSet | undefined): Candidate[] {
  const file = folder.methods.find((entry) => entry.method === "retrieve")?.file;
  if (file === undefined) return [];
  const schema = readPointer(folder.files.get(file), "/$defs/params") as JsonSchema | undefined;
  if (schema === undefined) return [];
  return examplesOf({ ref: `${file}#/$defs/params`, schema }, examples).flatMap(({ source, value }) => {
    const query = (value as { query?: unknown } | null)?.query;
    return typeof query === "string" && query.trim() !== "" ? [{ text: query, source: `example ${source}` }] : [];
  });
}
