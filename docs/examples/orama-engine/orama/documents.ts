/**
 * The documents the engine starts with: a few gardening notes with the metadata its filter
 * offers (`lang`, `year`, `published`, `tags`). `index/add` adds to them, `index/delete`
 * removes from them; both go through the Orama store, nothing is kept beside it.
 */
export interface GardenDocument {
  id: string;
  title: string;
  text: string;
  meta: DocumentMeta;
}

/** The metadata a document may carry; each key is an Orama property the §8 filter reaches. */
export interface DocumentMeta {
  lang?: string;
  year?: number;
  /** A §4.6 date: RFC 3339 or epoch milliseconds. */
  published?: string | number;
  tags?: string[];
}

export const startingDocuments: readonly GardenDocument[] = [
  {
    id: "doc-1",
    title: "Compost for seedlings",
    text: "Compost feeds tomato seedlings in a raised bed.",
    meta: { lang: "en", year: 2021, published: "2021-04-02T00:00:00Z", tags: ["soil", "tomato"] },
  },
  {
    id: "doc-2",
    title: "Raised beds in spring",
    text: "A raised bed warms up early in spring.",
    meta: { lang: "en", year: 2022, published: "2022-03-15T00:00:00Z", tags: ["beds"] },
  },
  {
    id: "doc-3",
    title: "What tomatoes want",
    text: "Tomato plants want sun, water and a stake.",
    meta: { lang: "en", year: 2023, published: "2023-06-01T00:00:00Z", tags: ["tomato"] },
  },
  {
    id: "doc-4",
    title: "Mulch in summer",
    text: "Mulch keeps the soil of a bed moist in summer.",
    meta: { lang: "en", year: 2023, published: "2023-07-20T00:00:00Z", tags: ["soil", "water"] },
  },
  {
    id: "doc-5",
    title: "Hardening off",
    text: "Seedlings grown indoors need hardening off before they go outside.",
    meta: { lang: "en", year: 2024, published: "2024-04-10T00:00:00Z", tags: ["seedlings"] },
  },
  {
    id: "doc-6",
    title: "Kompost im Hochbeet",
    text: "Kompost versorgt Tomaten im Hochbeet mit Nährstoffen.",
    meta: { lang: "de", year: 2022, published: "2022-05-05T00:00:00Z", tags: ["soil", "tomato"] },
  },
  {
    id: "doc-7",
    title: "Giessen am Morgen",
    text: "Morgens giessen: das Wasser erreicht die Wurzeln, bevor die Sonne es verdunstet.",
    meta: { lang: "de", year: 2024, published: "2024-06-30T00:00:00Z", tags: ["water"] },
  },
  {
    id: "doc-8",
    title: "Crop rotation",
    text: "Rotate tomatoes, beans and cabbage so the soil of each bed recovers.",
    meta: { lang: "en", year: 2020, published: "2020-02-11T00:00:00Z", tags: ["soil", "beds"] },
  },
  {
    id: "doc-9",
    title: "Watering seedlings",
    text: "Water seedlings from below so their stems stay dry.",
    meta: { lang: "en", year: 2024, tags: ["seedlings", "water"] },
  },
  {
    id: "doc-10",
    title: "A note without metadata",
    text: "Slugs love lettuce; a beer trap keeps them off the bed.",
    meta: {},
  },
];
