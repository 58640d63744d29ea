/** Topic vocabularies the corpus generator draws sentences from, per language. */

export type Lang = "en" | "de";

export interface TopicWords {
  title: string;
  nouns: readonly string[];
  adjectives: readonly string[];
  verbs: readonly string[];
}

export const TOPICS = [
  "databases",
  "machine-learning",
  "networking",
  "security",
  "gardening",
  "cooking",
  "astronomy",
  "music",
] as const;

export type Topic = (typeof TOPICS)[number];

export const VOCABULARY: Record<Lang, Record<Topic, TopicWords>> = {
  en: {
    databases: {
      title: "Databases",
      nouns: [
        "index",
        "query planner",
        "transaction",
        "b-tree",
        "replica",
        "schema",
        "join",
        "write-ahead log",
        "partition",
        "vacuum",
      ],
      adjectives: ["durable", "relational", "columnar", "consistent", "sharded", "indexed"],
      verbs: ["speeds up", "serialises", "replicates", "compacts", "locks", "scans"],
    },
    "machine-learning": {
      title: "Machine learning",
      nouns: [
        "neural network",
        "gradient",
        "embedding",
        "transformer",
        "attention head",
        "loss function",
        "training set",
        "optimizer",
        "classifier",
        "tokenizer",
      ],
      adjectives: ["supervised", "deep", "overfitted", "regularised", "pretrained", "sparse"],
      verbs: ["learns", "minimises", "fine-tunes", "predicts", "encodes", "generalises"],
    },
    networking: {
      title: "Networking",
      nouns: [
        "router",
        "packet",
        "latency",
        "tcp handshake",
        "dns resolver",
        "bandwidth",
        "subnet",
        "load balancer",
        "socket",
        "congestion window",
      ],
      adjectives: ["routed", "lossy", "encrypted", "multiplexed", "congested", "redundant"],
      verbs: ["forwards", "retransmits", "resolves", "throttles", "balances", "drops"],
    },
    security: {
      title: "Security",
      nouns: [
        "password",
        "certificate",
        "firewall",
        "vulnerability",
        "access token",
        "cipher",
        "audit log",
        "phishing email",
        "sandbox",
        "private key",
      ],
      adjectives: ["compromised", "hardened", "signed", "untrusted", "rotated", "leaked"],
      verbs: ["encrypts", "authenticates", "revokes", "detects", "blocks", "patches"],
    },
    gardening: {
      title: "Gardening",
      nouns: [
        "tomato plant",
        "compost",
        "seedling",
        "raised bed",
        "mulch",
        "rose bush",
        "soil",
        "watering can",
        "greenhouse",
        "pruning shear",
      ],
      adjectives: ["organic", "shaded", "fertile", "perennial", "drought-tolerant", "blooming"],
      verbs: ["waters", "prunes", "fertilises", "transplants", "harvests", "protects"],
    },
    cooking: {
      title: "Cooking",
      nouns: [
        "sourdough",
        "risotto",
        "cast iron pan",
        "spice blend",
        "broth",
        "knife",
        "oven",
        "marinade",
        "dumpling",
        "olive oil",
      ],
      adjectives: ["crispy", "slow-cooked", "seasoned", "fermented", "roasted", "tender"],
      verbs: ["simmers", "bakes", "braises", "seasons", "kneads", "caramelises"],
    },
    astronomy: {
      title: "Astronomy",
      nouns: [
        "telescope",
        "galaxy",
        "exoplanet",
        "nebula",
        "supernova",
        "orbit",
        "comet",
        "black hole",
        "star cluster",
        "eclipse",
      ],
      adjectives: ["distant", "luminous", "rotating", "infrared", "dwarf", "binary"],
      verbs: ["observes", "orbits", "collapses", "emits", "eclipses", "drifts past"],
    },
    music: {
      title: "Music",
      nouns: [
        "guitar",
        "chord progression",
        "melody",
        "drum kit",
        "orchestra",
        "rhythm",
        "synthesizer",
        "choir",
        "piano",
        "bass line",
      ],
      adjectives: ["acoustic", "syncopated", "minor-key", "orchestral", "improvised", "harmonic"],
      verbs: ["plays", "arranges", "improvises", "tunes", "records", "harmonises"],
    },
  },
  de: {
    databases: {
      title: "Datenbanken",
      nouns: ["Index", "Transaktion", "Abfrage", "Replikat", "Tabelle", "Partition"],
      adjectives: ["dauerhaft", "relational", "konsistent", "verteilt"],
      verbs: ["beschleunigt", "repliziert", "sperrt", "durchsucht"],
    },
    "machine-learning": {
      title: "Maschinelles Lernen",
      nouns: ["neuronales Netz", "Gradient", "Einbettung", "Trainingsmenge", "Verlustfunktion", "Klassifikator"],
      adjectives: ["überwacht", "tief", "vortrainiert", "regularisiert"],
      verbs: ["lernt", "minimiert", "verallgemeinert", "kodiert"],
    },
    networking: {
      title: "Netzwerke",
      nouns: ["Router", "Paket", "Latenz", "Bandbreite", "Lastverteiler", "Teilnetz"],
      adjectives: ["verschlüsselt", "überlastet", "redundant", "verlustbehaftet"],
      verbs: ["leitet weiter", "verwirft", "drosselt", "verteilt"],
    },
    security: {
      title: "Sicherheit",
      nouns: ["Passwort", "Zertifikat", "Firewall", "Schwachstelle", "Schlüssel", "Prüfprotokoll"],
      adjectives: ["kompromittiert", "gehärtet", "signiert", "unsicher"],
      verbs: ["verschlüsselt", "blockiert", "erkennt", "widerruft"],
    },
    gardening: {
      title: "Gartenarbeit",
      nouns: ["Tomatenpflanze", "Kompost", "Setzling", "Hochbeet", "Rosenstrauch", "Gewächshaus"],
      adjectives: ["biologisch", "schattig", "fruchtbar", "blühend"],
      verbs: ["gießt", "schneidet", "düngt", "erntet"],
    },
    cooking: {
      title: "Kochen",
      nouns: ["Sauerteig", "Brühe", "Gusseisenpfanne", "Gewürzmischung", "Knödel", "Olivenöl"],
      adjectives: ["knusprig", "geschmort", "gewürzt", "geröstet"],
      verbs: ["köchelt", "backt", "schmort", "knetet"],
    },
    astronomy: {
      title: "Astronomie",
      nouns: ["Teleskop", "Galaxie", "Exoplanet", "Nebel", "Komet", "Sternhaufen"],
      adjectives: ["fern", "leuchtend", "infrarot", "rotierend"],
      verbs: ["beobachtet", "umkreist", "strahlt aus", "verfinstert"],
    },
    music: {
      title: "Musik",
      nouns: ["Gitarre", "Melodie", "Schlagzeug", "Orchester", "Klavier", "Chor"],
      adjectives: ["akustisch", "synkopiert", "improvisiert", "harmonisch"],
      verbs: ["spielt", "arrangiert", "stimmt", "nimmt auf"],
    },
  },
};

/** Sentence frames; `{A}` adjective, `{N}`/`{M}` nouns, `{V}` verb. */
export const FRAMES: Record<Lang, readonly string[]> = {
  en: [
    "The {A} {N} {V} the {M}.",
    "A {A} {N} often {V} every {M} it touches.",
    "Why the {N} {V} the {A} {M} matters more than expected.",
    "Notes on how a {N} {V} a {A} {M} in practice.",
    "Every {A} {M} needs a {N} that {V} it well.",
  ],
  de: ["{N} {V} {M}, {A} und zuverlässig.", "Warum {N} und {M} zusammengehören.", "Praxisnotizen: {N} {V} {M}, {A}."],
};
