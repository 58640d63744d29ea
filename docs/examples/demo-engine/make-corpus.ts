/**
 * Generates the demo corpus deterministically (seeded PRNG over topic vocabularies) so the
 * committed corpus.json can be reproduced and checked byte for byte:
 *   node dist/docs/examples/demo-engine/make-corpus.js [out=docs/examples/demo-engine/corpus.json]
 */
import { writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { FRAMES, TOPICS, VOCABULARY, type Lang, type Topic, type TopicWords } from "./vocabulary.js";

export interface CorpusDocument {
  id: string;
  title: string;
  text: string;
  uri: string;
  meta: { year: number; lang: Lang; tag: Topic; published?: string };
}

export const CORPUS_SEED = 20_260_101;
export const CORPUS_SIZE = 320;

/** mulberry32: tiny, fast, and identical on every platform. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), state | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export function makeCorpus(seed = CORPUS_SEED, size = CORPUS_SIZE): CorpusDocument[] {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

  const sentence = (lang: Lang, words: TopicWords): string => {
    const noun = pick(words.nouns);
    const other = pick(words.nouns.filter((candidate) => candidate !== noun));
    const filled = pick(FRAMES[lang])
      .replace("{A}", pick(words.adjectives))
      .replace("{N}", noun)
      .replace("{M}", other)
      .replace("{V}", pick(words.verbs));
    return filled.charAt(0).toUpperCase() + filled.slice(1);
  };

  const documents: CorpusDocument[] = [];
  for (let index = 0; index < size; index += 1) {
    const tag = TOPICS[index % TOPICS.length]!;
    const lang: Lang = random() < 0.2 ? "de" : "en";
    const words = VOCABULARY[lang][tag];
    const sentences = Array.from({ length: 2 + Math.floor(random() * 2) }, () => sentence(lang, words));
    // Some documents stray into a second topic, so hybrid recall has overlaps to resolve.
    if (random() < 0.15) sentences.push(sentence(lang, VOCABULARY[lang][pick(TOPICS)]));
    const year = 2015 + Math.floor(random() * 11);
    const month = 1 + Math.floor(random() * 12);
    const day = 1 + Math.floor(random() * 28);
    const id = `doc-${String(index + 1).padStart(3, "0")}`;
    const meta: CorpusDocument["meta"] = { year, lang, tag };
    // A few documents lack a publication date, so `exists` has something to tell apart.
    if (random() < 0.9) meta.published = `${year}-${pad(month)}-${pad(day)}T00:00:00Z`;
    documents.push({
      id,
      title: `${words.title}: ${pick(words.nouns)}`,
      text: sentences.join(" "),
      uri: `https://demo.rcp.example/docs/${id}`,
      meta,
    });
  }
  return documents;
}

function pad(value: number): string {
  return String(value).padStart(2, "0");
}

export function serializeCorpus(documents: readonly CorpusDocument[]): string {
  return `${JSON.stringify(documents, null, 1)}\n`;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const out = process.argv[2] ?? "docs/examples/demo-engine/corpus.json";
  writeFileSync(out, serializeCorpus(makeCorpus()));
  process.stderr.write(`wrote ${CORPUS_SIZE} documents to ${out}\n`);
}
