/**
 * createMockServer: an RCP engine made from a schema folder alone, on the runtime's server like
 * any engine (so the runtime's session rules, params checks, gates and clamps hold, and
 * `rcp-gen conform` certifies the level it declares). Its handlers answer from the folder's
 * examples or sampled data (./results.ts), shaped to the request by the schema's `x-rcp.results`
 * rules; streaming methods report the stages `x-rcp.stages` names over `latencyMs`; faults are
 * injected on demand (./faults.ts); every client message is checked (./client-checks.ts).
 */
import {
  RcpError,
  createServerRuntime,
  type AnyHandler,
  type ConformanceLevel,
  type HandlerContext,
  type JsonObject,
  type ProgressEvent,
  type ProtocolDescriptor,
  type RcpServer,
} from "@rcp-gen/runtime";
import { readExamples, examplesOf, type ExampleSet } from "../targets/shared/examples.js";
import { conformProtocol } from "../conform/protocol.js";
import { loadSchemaFolder, type LoadedSchemaFolder } from "../load/loader.js";
import { isJsonObject } from "../load/json-pointer.js";
import { setPath } from "@rcp-gen/runtime/testing";
import { rcpSchemaDir } from "../shipped.js";
import { generatorVersion } from "../cli/version.js";
import { ClientChecks, type ClientReport, type ClientViolation } from "./client-checks.js";
import { faultsOf, type CallFaults, type MockFaults } from "./faults.js";
import { inlineSchema } from "./inline-schema.js";
import { methodResults, sample, type MethodResults } from "./results.js";
import { seededRandom, type Random } from "./seeded.js";

export type { ClientReport, ClientViolation } from "./client-checks.js";
export { FAULT_META_KEY, parseFailRule, type FailRule, type MockFaults } from "./faults.js";

export interface MockOptions {
  /** A schema folder (path or loaded); default the RCP/1 schema rcp-gen ships. */
  readonly schema?: string | LoadedSchemaFolder;
  /** Examples (`<shape>/<name>.json`, a path or read) results are taken from; default the schema's own `examples`. */
  readonly examples?: string | ExampleSet;
  /** Seeds sampled data, fault rates and vectors, so runs repeat (default 1). */
  readonly seed?: number;
  /** How long a call takes, its progress spread over it (default 0). */
  readonly latencyMs?: number;
  /**
   * What the mock advertises; default the `capabilities` of the first `initialize` result
   * example, else each method's capability sampled from its schema; `streaming` and `log` are
   * added when the schema defines them, so progress and logs can be tried.
   */
  readonly capabilities?: JsonObject;
  /** The conformance level declared in `_meta.conformance` (default L0). */
  readonly level?: ConformanceLevel;
  readonly faults?: MockFaults;
  /** Called when a fault drops the connection (default: the server closes, ending in-memory connections). */
  readonly onDrop?: () => void;
  /** Called with each client violation as it is found. */
  readonly onViolation?: (violation: ClientViolation) => void;
  /** Server diagnostics (default stderr). */
  readonly diagnostics?: (line: string) => void;
}

export interface MockServer {
  /** Serve it like any server: `serveStdio`, `listen`, `fetch`, `connect`. */
  readonly server: RcpServer;
  readonly protocol: ProtocolDescriptor;
  readonly capabilities: Readonly<JsonObject>;
  /** What the clients did wrong so far, with spec sections. */
  report(): ClientReport;
}

export function createMockServer(options: MockOptions = {}): MockServer {
  const folder =
    typeof options.schema === "object" ? options.schema : loadSchemaFolder(options.schema ?? rcpSchemaDir());
  const examples = typeof options.examples === "string" ? readExamples(options.examples) : options.examples;
  const seed = options.seed ?? 1;
  const protocol = conformProtocol(folder);
  const capabilities = options.capabilities ?? defaultCapabilities(folder, examples, seed);
  const results = methodResults(folder, protocol, examples, seed);
  const random = seededRandom(seed);
  const checks = new ClientChecks(protocol, options.onViolation);
  const faults = options.faults ?? {};
  const latencyMs = options.latencyMs ?? 0;
  const drop = options.onDrop ?? (() => void server.close());
  const errorMessages = Object.fromEntries(Object.values(protocol.errors).map((error) => [error.code, error.message]));

  const handlers: Record<string, AnyHandler> = {};
  for (const [method, made] of results) {
    handlers[method] = (params: Record<string, unknown>, ctx: HandlerContext) => {
      const call = faultsOf(method, ctx.meta, faults, random);
      return answer(made, params, ctx, call, {
        capabilities,
        random,
        latencyMs: call.latencyMs ?? latencyMs,
        drop,
        errorMessages,
      });
    };
  }
  const server: RcpServer = createServerRuntime(protocol, {
    info: { name: "rcp-gen-mock", version: generatorVersion },
    capabilities,
    conformance: options.level ?? "L0",
    handlers: Object.fromEntries(
      Object.entries(handlers).filter(([method]) => advertised(protocol, capabilities, method)),
    ),
    observeInbound: checks.observe,
    ...(options.diagnostics === undefined ? {} : { diagnostics: options.diagnostics }),
  });
  return { server, protocol, capabilities, report: () => checks.report() };
}

interface CallSetting {
  readonly capabilities: Readonly<JsonObject>;
  readonly random: Random;
  readonly latencyMs: number;
  readonly drop: () => void;
  /** The folder's error messages by code, for injected failures. */
  readonly errorMessages: Readonly<Record<number, string>>;
}

/** One call: a fault, or the result, after the progress its stages make over the latency. */
function answer(
  made: MethodResults,
  params: Record<string, unknown>,
  ctx: HandlerContext,
  faults: CallFaults,
  setting: CallSetting,
): unknown {
  const streaming = made.method.annotation.streaming === true;
  const immediate = faults.fail === undefined && !faults.stall && faults.dropAfter === undefined;
  if (immediate && setting.latencyMs === 0 && (!streaming || ctx.meta.progressToken === undefined))
    return made.resultFor(params, setting.capabilities, setting.random);
  return (async function* (): AsyncGenerator<ProgressEvent, unknown, void> {
    const result = made.resultFor(params, setting.capabilities, setting.random);
    const stages = streaming ? (made.method.annotation.stages ?? ["working"]) : [];
    const steps = Math.max(stages.length, 1);
    let sent = 0;
    for (const [index, stage] of stages.entries()) {
      if (faults.dropAfter !== undefined && sent >= faults.dropAfter) break;
      await pause(setting.latencyMs / steps, ctx.signal);
      const share = (index + 1) / (steps + 1);
      const partial = made.partialOf(result, share);
      yield {
        progress: share,
        stage,
        message: `${stage} ${index + 1}/${steps}`,
        ...(partial === undefined ? {} : { partial }),
      };
      sent++;
    }
    if (faults.dropAfter !== undefined) {
      setting.drop();
      await never(ctx.signal);
    }
    if (faults.stall) await never(ctx.signal);
    await pause(stages.length === 0 ? setting.latencyMs : setting.latencyMs / steps, ctx.signal);
    if (faults.fail !== undefined) throw new RcpError(faults.fail, setting.errorMessages[faults.fail]);
    return result;
  })();
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(signal.reason as Error);
      },
      { once: true },
    );
  });
}

/** Waits until the call is cancelled, past its deadline or its client gone. */
function never(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason as Error);
    signal.addEventListener("abort", () => reject(signal.reason as Error), { once: true });
  });
}

function advertised(protocol: ProtocolDescriptor, capabilities: Readonly<JsonObject>, method: string): boolean {
  const capability = protocol.methods[method]?.capability;
  return capability === null || capability === undefined || capabilities[capability] !== undefined;
}

/** The first initialize result example's capabilities, else each method's capability sampled; plus streaming and log. */
function defaultCapabilities(folder: LoadedSchemaFolder, examples: ExampleSet | undefined, seed: number): JsonObject {
  const initialize = folder.methods.find((method) => method.annotation.lifecycle === "initialize");
  const fromExample =
    initialize === undefined
      ? undefined
      : examplesOf(
          {
            ref: `${initialize.file}#/$defs/result`,
            schema: initialize.document.$defs.result,
          },
          examples,
        )
          .map(({ value }) => (isJsonObject(value) ? value.capabilities : undefined))
          .find(isJsonObject);
  const capabilities: JsonObject = fromExample === undefined ? {} : structuredClone(fromExample);
  const defined = (readDefs(folder, "serverCapabilities")?.properties ?? {}) as Record<string, unknown>;
  if (fromExample === undefined) {
    // Holding no data, the mock offers only capabilities with a method that reads; options gated
    // by a list are advertised at the list's default (`embed.encodings`: json), so what is
    // advertised is what the mock's results honour.
    const readable = new Set(
      folder.methods
        .filter((method) => method.annotation.writes !== true)
        .map((method) => method.annotation.capability),
    );
    for (const method of folder.methods) {
      const key = method.annotation.capability;
      if (key === null || !readable.has(key)) continue;
      const schema = defined[key] ?? (key.startsWith("x-") ? { type: "object" } : undefined);
      if (schema === undefined) continue;
      if (!(key in capabilities)) {
        const value = sample(inlineSchemaOf(folder, key, schema), seed);
        capabilities[key] = isJsonObject(value) ? value : {};
      }
      for (const gate of method.annotation.gates ?? [])
        if (gate.in?.startsWith(`${key}.`) === true && gate.default !== undefined)
          setPath(capabilities, gate.in, gate.default);
    }
  }
  for (const key of ["streaming", "log"]) if (key in defined && !(key in capabilities)) capabilities[key] = {};
  return capabilities;
}

function readDefs(folder: LoadedSchemaFolder, name: string): Record<string, unknown> | undefined {
  const defs = (folder.files.get("capabilities.json") as { $defs?: Record<string, unknown> } | undefined)?.$defs;
  const found = defs?.[name];
  return isJsonObject(found) ? found : undefined;
}

function inlineSchemaOf(folder: LoadedSchemaFolder, key: string, schema: unknown): unknown {
  return isJsonObject(schema) && typeof schema.$ref === "string"
    ? inlineSchema(folder, `capabilities.json#/$defs/serverCapabilities/properties/${key}`)
    : schema;
}
