/**
 * `rcp-gen breaking`'s comparison of two loaded schema folders: the methods, notifications,
 * capabilities, error codes and shared types by name, each method's x-rcp annotation, and
 * every schema by who reads it (compare-schema.ts). Whatever changed in a file and was
 * reached by none of these is compared on its own, as read by both sides, so no change goes
 * unreported.
 */
import { canonicalJson } from "../load/canonical-json.js";
import { isJsonObject } from "../load/json-pointer.js";
import { schemaIdBase, type LoadedSchemaFolder } from "../load/loader.js";
import { walkSchema } from "../load/schema-walk.js";
import { buildModel, type RcpMethod, type RcpModel, type RcpNotification } from "../model/model.js";
import { compareSchemas, type Place } from "./compare-schema.js";
import { FindingSet } from "./findings.js";
import { folderRules, type Direction, type Finding, type FolderRuleId } from "./rules.js";

export function compareFolders(old: LoadedSchemaFolder, next: LoadedSchemaFolder): Finding[] {
  return new FolderComparison(old, next).run();
}

/**
 * x-rcp members that describe a method to people and tools (MCP tool hints, the domain errors
 * its handler documents, how `rcp-gen mock` shapes results and names stages) and change nothing a
 * peer sends or accepts.
 */
const methodHints = ["writes", "destructive", "errors", "results", "stages"] as const;

/** The x-rcp members of a method file this comparison understands; any other is unclassified. */
const knownMethodAnnotations = new Set([
  "kind",
  "method",
  "spec",
  "capability",
  "requires",
  "beforeInitialize",
  "lifecycle",
  "streaming",
  "strictParam",
  "pagination",
  "idempotent",
  "aliases",
  "gates",
  "clamps",
  "rules",
  ...methodHints,
]);
const knownNotificationAnnotations = new Set(["kind", "method", "spec", "direction", "role"]);

class FolderComparison {
  readonly findings = new FindingSet();
  /** Every schema of the new folder some comparison reached. */
  readonly #reached = new Set<string>();
  readonly #old: RcpModel;
  readonly #new: RcpModel;

  readonly #settled: (file: string) => boolean;

  constructor(
    private readonly oldFolder: LoadedSchemaFolder,
    private readonly newFolder: LoadedSchemaFolder,
  ) {
    this.#old = buildModel(oldFolder);
    this.#new = buildModel(newFolder);
    this.#settled = settledFiles(oldFolder, newFolder);
  }

  run(): Finding[] {
    this.#protocol();
    this.#methods();
    this.#notifications();
    this.#capabilities();
    this.#errors();
    this.#types();
    this.#schema("meta.json", "/$defs/meta", "both", "_meta");
    this.#schema("meta.json", "/$defs/logLevel", "both", "log levels");
    this.#unreached();
    return this.findings.list();
  }

  #add(rule: FolderRuleId, file: string, pointer: string, message: string, via = ""): void {
    this.findings.add({ rule, severity: folderRules[rule].severity, file, pointer, message }, via);
  }

  #schema(
    file: string,
    pointer: string,
    direction: Direction,
    via: string,
    oldFile = file,
    rootTitleIsDoc = false,
  ): void {
    const old: Place = { folder: this.oldFolder, file: oldFile, pointer };
    const next: Place = { folder: this.newFolder, file, pointer };
    compareSchemas(old, next, {
      findings: this.findings,
      via,
      direction,
      rootTitleIsDoc,
      reached: this.#reached,
      settled: this.#settled,
    });
  }

  #protocol(): void {
    const [a, b] = [this.oldFolder.protocol["x-rcp"], this.newFolder.protocol["x-rcp"]];
    if (a.version !== b.version)
      this.#add("protocol-version-changed", "protocol.json", "/x-rcp/version", `version ${a.version} -> ${b.version}`);
    if (a.notificationPrefix !== b.notificationPrefix)
      this.#add(
        "notification-prefix-changed",
        "protocol.json",
        "/x-rcp/notificationPrefix",
        `"${a.notificationPrefix}" -> "${b.notificationPrefix}"`,
      );
    for (const key of ["name", "spec"] as const)
      if (a[key] !== b[key])
        this.#doc("protocol.json", `/x-rcp/${key}`, `${key} ${JSON.stringify(a[key])} -> ${JSON.stringify(b[key])}`);
    for (const envelope of ["request", "notification", "response"])
      this.#schema("protocol.json", `/$defs/${envelope}`, "both", `${envelope} envelope`);
  }

  #doc(file: string, pointer: string, message: string, via = ""): void {
    this.findings.add({ rule: "doc-changed", severity: "safe", file, pointer, message }, via);
  }

  #methods(): void {
    const pairs = matchByName(this.#old.methods, this.#new.methods);
    for (const method of pairs.removed)
      this.#add("method-removed", method.file, "/x-rcp/method", `method ${method.method} was removed`);
    for (const method of pairs.added)
      this.#add("method-added", method.file, "/x-rcp/method", `method ${method.method} was added`);
    for (const [old, next] of pairs.renamed)
      this.#add(
        "method-renamed",
        next.file,
        "/x-rcp/method",
        `method ${old.method} is now ${next.method} (client method ${old.camelName} -> ${next.camelName})`,
      );
    for (const [old, next] of [...pairs.same, ...pairs.renamed]) this.#method(old, next);
  }

  #method(old: RcpMethod, next: RcpMethod): void {
    const file = next.file;
    const via = (role: string) => `${next.method} ${role}`;
    this.#schema(file, "/$defs/params", "input", via("params"), old.file, true);
    this.#schema(file, "/$defs/result", "output", via("result"), old.file, true);
    if (old.partial && next.partial) this.#schema(file, "/$defs/partial", "output", via("partial"), old.file, true);
    else if (old.partial)
      this.#add("partial-removed", file, "/$defs/partial", `${next.method} no longer declares a partial schema`);
    else if (next.partial)
      this.#add("partial-added", file, "/$defs/partial", `${next.method} declares a partial schema`);
    const at = (key: string) => `/x-rcp/${key}`;
    if (old.capability !== next.capability)
      this.#add(
        "method-gate-changed",
        file,
        at("capability"),
        `${next.method}'s capability ${JSON.stringify(old.capability)} -> ${JSON.stringify(next.capability)}`,
      );
    if (old.requires !== next.requires)
      this.#add(
        "method-gate-changed",
        file,
        at("requires"),
        `${next.method}'s requires ${JSON.stringify(old.requires)} -> ${JSON.stringify(next.requires)}`,
      );
    if (old.streaming !== next.streaming)
      this.#add(
        next.streaming ? "streaming-added" : "streaming-removed",
        file,
        at("streaming"),
        `${next.method} streaming ${old.streaming} -> ${next.streaming}`,
      );
    if (old.beforeInitialize !== next.beforeInitialize)
      this.#add(
        "before-initialize-changed",
        file,
        at("beforeInitialize"),
        `${next.method} beforeInitialize ${old.beforeInitialize} -> ${next.beforeInitialize}`,
      );
    if (old.lifecycle !== next.lifecycle)
      this.#add(
        "lifecycle-changed",
        file,
        at("lifecycle"),
        `${next.method} lifecycle ${JSON.stringify(old.lifecycle)} -> ${JSON.stringify(next.lifecycle)}`,
      );
    this.#entries(file, "gates", old.gates, next.gates, "option-gate-added", "option-gate-removed");
    this.#entries(file, "rules", old.rules, next.rules, "cross-field-rule-added", "cross-field-rule-removed");
    this.#entries(file, "clamps", old.clamps, next.clamps, "clamp-changed", "clamp-changed");
    for (const [alias, canonical] of Object.entries(old.aliases))
      if (next.aliases[alias] !== canonical)
        this.#add(
          "param-alias-removed",
          file,
          `${at("aliases")}/${alias}`,
          `alias ${alias} (for ${canonical}) was removed`,
        );
    for (const [alias, canonical] of Object.entries(next.aliases))
      if (old.aliases[alias] !== canonical)
        this.#add("param-alias-added", file, `${at("aliases")}/${alias}`, `alias ${alias} for ${canonical} was added`);
    this.#optionalSetting(
      file,
      "pagination",
      old.pagination,
      next.pagination,
      "pagination-added",
      "pagination-changed",
    );
    this.#optionalSetting(
      file,
      "strictParam",
      old.strictParam,
      next.strictParam,
      "strict-param-added",
      "strict-param-changed",
    );
    const strength = (value: RcpMethod["idempotent"]) => (value === true ? 2 : value === undefined ? 0 : 1);
    if (canonicalJson(old.idempotent) !== canonicalJson(next.idempotent))
      this.#add(
        strength(next.idempotent) > strength(old.idempotent) ? "idempotence-strengthened" : "idempotence-weakened",
        file,
        at("idempotent"),
        `idempotent ${JSON.stringify(old.idempotent ?? false)} -> ${JSON.stringify(next.idempotent ?? false)}`,
      );
    if (old.spec !== next.spec)
      this.#doc(file, at("spec"), `spec ${JSON.stringify(old.spec)} -> ${JSON.stringify(next.spec)}`);
    for (const key of ["title", "description"] as const)
      if (old[key] !== next[key])
        this.#doc(file, `/${key}`, `${key} ${JSON.stringify(old[key])} -> ${JSON.stringify(next[key])}`);
    const [oldHints, newHints] = [this.#annotation(this.oldFolder, old.file), this.#annotation(this.newFolder, file)];
    for (const key of methodHints)
      this.#optionalSetting(file, key, oldHints[key], newHints[key], "method-hint-changed", "method-hint-changed");
    this.#unknownAnnotations(old.file, file, knownMethodAnnotations);
  }

  #annotation(folder: LoadedSchemaFolder, path: string): Record<string, unknown> {
    const value = folder.files.get(path)?.["x-rcp"];
    return isJsonObject(value) ? value : {};
  }

  /** List settings (gates, rules, clamps): an entry not found written the same on the other side was added or removed. */
  #entries(
    file: string,
    key: string,
    old: readonly unknown[],
    next: readonly unknown[],
    added: FolderRuleId,
    removed: FolderRuleId,
  ): void {
    const [before, after] = [old.map(canonicalJson), next.map(canonicalJson)];
    before.forEach((entry, index) => {
      if (!after.includes(entry))
        this.#add(removed, file, `/x-rcp/${key}/${index}`, `${key} entry ${entry} was removed`);
    });
    after.forEach((entry, index) => {
      if (!before.includes(entry)) this.#add(added, file, `/x-rcp/${key}/${index}`, `${key} entry ${entry} was added`);
    });
  }

  #optionalSetting(
    file: string,
    key: string,
    old: unknown,
    next: unknown,
    added: FolderRuleId,
    changed: FolderRuleId,
  ): void {
    if (canonicalJson(old) === canonicalJson(next)) return;
    this.#add(
      old === undefined ? added : changed,
      file,
      `/x-rcp/${key}`,
      `${key} ${JSON.stringify(old) ?? "none"} -> ${JSON.stringify(next) ?? "none"}`,
    );
  }

  #unknownAnnotations(oldFile: string, file: string, known: ReadonlySet<string>): void {
    const [a, b] = [this.#annotation(this.oldFolder, oldFile), this.#annotation(this.newFolder, file)];
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)]))
      if (!known.has(key) && canonicalJson(a[key]) !== canonicalJson(b[key]))
        this.findings.add(
          {
            rule: "unclassified-change",
            severity: "wire",
            file,
            pointer: `/x-rcp/${key}`,
            message: `x-rcp ${key} ${JSON.stringify(a[key]) ?? "none"} -> ${JSON.stringify(b[key]) ?? "none"}: no rule knows this annotation`,
          },
          "",
        );
  }

  #notifications(): void {
    const pairs = matchByName(this.#old.notifications, this.#new.notifications);
    for (const item of pairs.removed)
      this.#add("notification-removed", item.file, "/x-rcp/method", `notification ${item.method} was removed`);
    for (const item of pairs.added)
      this.#add("notification-added", item.file, "/x-rcp/method", `notification ${item.method} was added`);
    for (const [old, next] of pairs.renamed)
      this.#add("notification-renamed", next.file, "/x-rcp/method", `notification ${old.method} is now ${next.method}`);
    for (const [old, next] of [...pairs.same, ...pairs.renamed]) {
      for (const key of ["direction", "role"] as const)
        if (old[key] !== next[key])
          this.#add(
            "notification-direction-changed",
            next.file,
            `/x-rcp/${key}`,
            `${next.method} ${key} ${JSON.stringify(old[key])} -> ${JSON.stringify(next[key])}`,
          );
      const direction: Direction =
        old.direction !== next.direction || next.direction === "both"
          ? "both"
          : next.direction === "server"
            ? "output"
            : "input";
      this.#schema(next.file, "/$defs/params", direction, `${next.method} params`, old.file, true);
      if (old.spec !== next.spec)
        this.#doc(next.file, "/x-rcp/spec", `spec ${JSON.stringify(old.spec)} -> ${JSON.stringify(next.spec)}`);
      if (old.description !== next.description) this.#doc(next.file, "/description", "description changed");
      this.#unknownAnnotations(old.file, next.file, knownNotificationAnnotations);
    }
  }

  #capabilities(): void {
    for (const [side, direction] of [
      ["serverCapabilities", "output"],
      ["clientCapabilities", "input"],
    ] as const) {
      const pointer = `/$defs/${side}`;
      this.#schema("capabilities.json", pointer, direction, side);
      const keys = (folder: LoadedSchemaFolder) => {
        const properties = folder.capabilities.$defs[side]["properties"];
        return isJsonObject(properties) ? properties : {};
      };
      const [before, after] = [keys(this.oldFolder), keys(this.newFolder)];
      const memberPointer = (key: string) => `${pointer}/properties/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`;
      // The capability rules below say what member-added/removed would say of these keys.
      this.findings.remove(
        (finding) =>
          finding.file === "capabilities.json" &&
          (finding.rule === "member-added" || finding.rule === "member-removed") &&
          /^\/\$defs\/[^/]+\/properties\/[^/]+$/.test(finding.pointer) &&
          finding.pointer.startsWith(`${pointer}/`),
      );
      const removed = Object.keys(before).filter((key) => !Object.hasOwn(after, key));
      const added = Object.keys(after).filter((key) => !Object.hasOwn(before, key));
      for (const key of removed) {
        const renamedTo = added.find((candidate) => canonicalJson(after[candidate]) === canonicalJson(before[key]));
        if (renamedTo !== undefined) {
          added.splice(added.indexOf(renamedTo), 1);
          this.#add(
            "capability-renamed",
            "capabilities.json",
            memberPointer(renamedTo),
            `${side} ${key} is now ${renamedTo}`,
          );
        } else this.#add("capability-removed", "capabilities.json", memberPointer(key), `${side} ${key} was removed`);
      }
      for (const key of added)
        this.#add("capability-added", "capabilities.json", memberPointer(key), `${side} ${key} was added`);
    }
  }

  #errors(): void {
    const [before, after] = [this.#old.errors, this.#new.errors];
    const at = (code: number) => `/x-rcp/codes/${after.findIndex((entry) => entry.code === code)}`;
    for (const [index, error] of before.entries()) {
      const same = after.find((entry) => entry.code === error.code);
      if (same === undefined) {
        const moved = after.find((entry) => entry.symbol === error.symbol);
        if (moved)
          this.#add(
            "error-code-renamed",
            "errors.json",
            at(moved.code),
            `${error.symbol} ${error.code} -> ${moved.code}`,
          );
        else
          this.#add(
            "error-code-removed",
            "errors.json",
            `/x-rcp/codes/${index}`,
            `error ${error.code} ${error.symbol} was removed`,
          );
        continue;
      }
      if (same.symbol !== error.symbol)
        this.#add(
          "error-symbol-renamed",
          "errors.json",
          `${at(error.code)}/symbol`,
          `error ${error.code}: ${error.symbol} -> ${same.symbol}`,
        );
      if (same.retryable !== error.retryable)
        this.#add(
          "error-retryable-changed",
          "errors.json",
          `${at(error.code)}/retryable`,
          `error ${error.code}: retryable ${error.retryable} -> ${same.retryable}`,
        );
      for (const key of ["message", "spec"] as const)
        if (same[key] !== error[key])
          this.#doc(
            "errors.json",
            `${at(error.code)}/${key}`,
            `error ${error.code} ${key} ${JSON.stringify(error[key])} -> ${JSON.stringify(same[key])}`,
          );
    }
    for (const error of after)
      if (!before.some((entry) => entry.code === error.code || entry.symbol === error.symbol))
        this.#add("error-code-added", "errors.json", at(error.code), `error ${error.code} ${error.symbol} was added`);
  }

  /** Shared types by their TypeScript name (the title); a file that kept its path and changed its title was renamed. */
  #types(): void {
    const titles = (folder: LoadedSchemaFolder) =>
      new Map(folder.types.map((type) => [type.document.title, type.file]));
    const [before, after] = [titles(this.oldFolder), titles(this.newFolder)];
    const newTitleOfFile = new Map([...after].map(([title, file]) => [file, title]));
    const renamedTo = new Set<string>();
    for (const [title, file] of before) {
      if (after.has(title)) continue;
      const successor = newTitleOfFile.get(file);
      if (successor !== undefined && !before.has(successor)) {
        renamedTo.add(successor);
        this.#add("type-renamed", file, "/title", `type ${title} is now ${successor}`);
      } else this.#add("type-removed", file, "", `type ${title} was removed`);
    }
    for (const [title, file] of after)
      if (!before.has(title) && !renamedTo.has(title)) this.#add("type-added", file, "", `type ${title} was added`);
  }

  /**
   * Every part of a file (each `$defs` entry, and the rest) that changed yet holds no finding:
   * if a comparison reached it, it accepts what it accepted (`rewritten`); if none did, it is
   * compared on its own, as read by both sides, and still nothing found is `unclassified-change`.
   */
  #unreached(): void {
    for (const [file, document] of this.newFolder.files) {
      const oldDocument = this.oldFolder.files.get(file);
      if (oldDocument === undefined || this.oldFolder.fileHashes.get(file) === this.newFolder.fileHashes.get(file))
        continue;
      const defs = (value: unknown) => (isJsonObject(value) ? value : {});
      const [before, after] = [defs(oldDocument["$defs"]), defs(document["$defs"])];
      for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
        if (!Object.hasOwn(before, key) || !Object.hasOwn(after, key)) continue;
        const pointer = `/$defs/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`;
        if (canonicalJson(before[key]) === canonicalJson(after[key])) continue;
        this.#unreachedPart(file, pointer, (at) => at === pointer || at.startsWith(`${pointer}/`));
      }
      const rest = (value: Record<string, unknown>) => canonicalJson({ ...value, $defs: undefined, $id: undefined });
      if (rest(oldDocument) !== rest(document)) this.#unreachedPart(file, "", (at) => !at.startsWith("/$defs/"));
    }
  }

  #unreachedPart(file: string, pointer: string, within: (pointer: string) => boolean): void {
    if (this.findings.touches(file, within)) return;
    const reached = [...this.#reached].some((key) => key.startsWith(`${file}#`) && within(key.slice(file.length + 1)));
    if (reached) {
      this.findings.add(
        {
          rule: "rewritten",
          severity: "safe",
          file,
          pointer,
          message: "written differently; accepts the same values",
        },
        "",
      );
      return;
    }
    this.#schema(file, pointer, "both", `${file} (not reached from any method)`);
    if (!this.findings.touches(file, within))
      this.findings.add(
        {
          rule: "unclassified-change",
          severity: "wire",
          file,
          pointer,
          message: "changed, and no rule says how",
        },
        "",
      );
  }
}

/**
 * Which files are the same in both folders along with every file their `$ref`s reach
 * (following the new folder's references): comparing inside one can find nothing.
 */
function settledFiles(old: LoadedSchemaFolder, next: LoadedSchemaFolder): (file: string) => boolean {
  const references = new Map<string, Set<string>>();
  for (const [file, document] of next.files) {
    const targets = new Set<string>();
    walkSchema(document, (schema) => {
      const ref = isJsonObject(schema) ? schema["$ref"] : undefined;
      if (typeof ref !== "string") return;
      const url = new URL(ref, next.idOf(file));
      url.hash = "";
      targets.add(url.href.slice(schemaIdBase.length));
    });
    references.set(file, targets);
  }
  // Unsettled: a file that changed, and every file whose references reach one.
  const referrers = new Map<string, string[]>();
  for (const [file, targets] of references)
    for (const target of targets) referrers.set(target, [...(referrers.get(target) ?? []), file]);
  const unsettled = new Set(
    [...new Set([...old.fileHashes.keys(), ...next.fileHashes.keys()])].filter(
      (file) => old.fileHashes.get(file) !== next.fileHashes.get(file),
    ),
  );
  for (const pending = [...unsettled]; pending.length > 0;)
    for (const referrer of referrers.get(pending.pop()!) ?? [])
      if (!unsettled.has(referrer)) {
        unsettled.add(referrer);
        pending.push(referrer);
      }
  return (file) => !unsettled.has(file);
}

interface Matched<T> {
  same: [T, T][];
  renamed: [T, T][];
  removed: T[];
  added: T[];
}

/** Pairs by wire name; a name gone and a name new in the same file (or with the same shapes) is a rename. */
function matchByName<T extends RcpMethod | RcpNotification>(old: readonly T[], next: readonly T[]): Matched<T> {
  const byName = new Map(next.map((item) => [item.method, item]));
  const same: [T, T][] = [];
  const removed: T[] = [];
  for (const item of old) {
    const counterpart = byName.get(item.method);
    if (counterpart) same.push([item, counterpart]);
    else removed.push(item);
  }
  const oldNames = new Set(old.map((item) => item.method));
  const added = next.filter((item) => !oldNames.has(item.method));
  const shapes = (item: T) => canonicalJson([item.params.schema, "result" in item ? item.result.schema : null]);
  const renamed: [T, T][] = [];
  for (const item of [...removed]) {
    const successor =
      added.find((candidate) => candidate.file === item.file) ??
      added.find((candidate) => shapes(candidate) === shapes(item));
    if (!successor) continue;
    renamed.push([item, successor]);
    removed.splice(removed.indexOf(item), 1);
    added.splice(added.indexOf(successor), 1);
  }
  return { same, renamed, removed, added };
}
