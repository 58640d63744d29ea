/** A small, valid schema folder written to a temp dir, for tests that break it one way at a time. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

export type FolderFiles = Record<string, unknown>;

/** A JSON object (or array) inside a schema document, open for a test to edit in place. */
export type JsonNode = Record<string, unknown>;

/**
 * The object at JSON Pointer `pointer` ("" for the root) in `document`. Throws, naming the
 * pointer and `where`, when there is none, so a test whose fixture drifted fails with a clear message.
 */
export function nodeAt(document: unknown, pointer: string, where = "the document"): JsonNode {
  const tokens = pointer === "" ? [] : pointer.slice(1).split("/");
  let node = document;
  for (const token of tokens) {
    if (typeof node !== "object" || node === null) break;
    node = (node as JsonNode)[token.replaceAll("~1", "/").replaceAll("~0", "~")];
  }
  if (typeof node !== "object" || node === null) throw new Error(`no object at ${JSON.stringify(pointer)} in ${where}`);
  return node as JsonNode;
}

/** The object at `pointer` in the schema file `file` of `files`; see nodeAt. */
export function schemaNode(files: FolderFiles, file: string, pointer = ""): JsonNode {
  return nodeAt(files[file], pointer, file);
}

const metaRef = { $ref: "../meta.json#/$defs/meta" };

export function minimalSchemaFiles(): FolderFiles {
  return structuredClone({
    "protocol.json": {
      "x-rcp": { kind: "protocol", version: 1, notificationPrefix: "notifications/" },
      $defs: {
        request: {
          type: "object",
          required: ["jsonrpc", "id", "method"],
          properties: { jsonrpc: { const: "2.0" }, id: { type: ["string", "number"] }, method: { type: "string" } },
        },
        notification: {
          type: "object",
          required: ["jsonrpc", "method"],
          not: { required: ["id"] },
          properties: { jsonrpc: { const: "2.0" }, method: { type: "string" } },
        },
        response: {
          type: "object",
          required: ["jsonrpc", "id"],
          oneOf: [{ required: ["result"] }, { required: ["error"] }],
        },
      },
    },
    "meta.json": {
      $defs: {
        meta: { type: "object", properties: { progressToken: { type: ["string", "integer"] } } },
        logLevel: { enum: ["debug", "info", "error"] },
      },
    },
    "errors.json": {
      "x-rcp": {
        kind: "errors",
        codes: [
          {
            code: -32602,
            symbol: "InvalidParams",
            message: "Missing/malformed params or filter field.",
            retryable: "no",
          },
          {
            code: -32005,
            symbol: "OptionUnsupported",
            message: "A requested option (mode/method) is not advertised.",
            retryable: "no",
            spec: "§12",
          },
        ],
      },
    },
    "capabilities.json": {
      $defs: {
        serverCapabilities: { type: "object", properties: { retrieve: { type: "object" } } },
        clientCapabilities: { type: "object" },
      },
    },
    "types/hit.json": {
      title: "Hit",
      type: "object",
      required: ["id"],
      properties: { id: { type: "string" }, score: { type: "number" } },
    },
    "methods/retrieve.json": {
      "x-rcp": {
        kind: "method",
        method: "retrieve",
        capability: "retrieve",
        streaming: true,
        gates: [{ param: "mode", in: "retrieve.modes" }],
        clamps: [{ param: "k", max: "retrieve.maxK" }],
        rules: [{ rule: "nonIncreasing", params: ["candidateK", "k"], spec: "§3.3" }],
      },
      $defs: {
        params: {
          type: "object",
          required: ["query"],
          properties: {
            query: { type: "string" },
            k: { type: "integer" },
            candidateK: { type: "integer" },
            mode: { type: "string" },
            _meta: metaRef,
          },
        },
        result: {
          type: "object",
          required: ["hits"],
          properties: { hits: { type: "array", items: { $ref: "../types/hit.json" } }, _meta: metaRef },
        },
        partial: { type: "object", properties: { hits: { type: "array" } } },
      },
    },
    "methods/ping.json": {
      "x-rcp": { kind: "method", method: "ping", capability: null, lifecycle: "ping", beforeInitialize: true },
      $defs: { params: { type: "object" }, result: { type: "object" } },
    },
    "notifications/progress.json": {
      "x-rcp": { kind: "notification", method: "notifications/progress", direction: "server", role: "progress" },
      $defs: { params: { type: "object", required: ["progress"], properties: { progress: { type: "number" } } } },
    },
  });
}

const written: string[] = [];

/** Writes `files` (objects as JSON, strings verbatim) into a fresh temp folder. */
export function writeSchemaFolder(files: FolderFiles): string {
  const dir = mkdtempSync(join(tmpdir(), "rcp-schema-"));
  written.push(dir);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), typeof content === "string" ? content : JSON.stringify(content, null, 2));
  }
  return dir;
}

/** Removes every folder writeSchemaFolder created in this test file. */
export function removeSchemaFolders(): void {
  for (const dir of written.splice(0)) rmSync(dir, { recursive: true, force: true });
}
