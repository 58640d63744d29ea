/**
 * One table of error codes: the runtime's rcpErrors. ErrorCode (which the runtime's own code
 * throws by symbol) and RcpError's default messages derive from it, the generated protocol
 * descriptor refers to it, and schema/errors.json states the same table.
 */
import { expect, it } from "vitest";
import { protocol } from "../../generated/methods.js";
import { ErrorCode, RcpError, rcpErrors, toErrorObject } from "../../runtime/src/protocol/errors.js";
import { loadRepoSchema } from "../schema/schema-folder.js";

const schemaErrors = loadRepoSchema().errors;

it("the runtime's ErrorCode is errors.json's table: same symbols, same codes, nothing more", () => {
  expect(Object.entries(ErrorCode).sort(([a], [b]) => (a < b ? -1 : 1))).toEqual(
    schemaErrors.map((error): [string, number] => [error.symbol, error.code]).sort(([a], [b]) => (a < b ? -1 : 1)),
  );
});

it("the generated descriptor carries errors.json's codes, symbols, messages and retryability: the runtime's rcpErrors", () => {
  expect(protocol.errors).toBe(rcpErrors);
  expect(Object.values(protocol.errors)).toEqual(
    schemaErrors.map(({ code, symbol, message, retryable }) => ({ code, symbol, message, retryable })),
  );
});

it("an RcpError made without a message says its code's symbol in words, -32600 as JSON-RPC 2.0 writes it", () => {
  expect(Object.values(ErrorCode).map((code) => new RcpError(code).message)).toEqual([
    "Parse error",
    "Invalid Request",
    "Method not found",
    "Invalid params",
    "Internal error",
    "Not initialized",
    "Version mismatch",
    "Capability missing",
    "Unknown method",
    "Option unsupported",
    "Cancelled",
    "Backend unavailable",
    "Rate limited",
    "Unauthorized",
    "Payload too large",
    "Timeout",
    "Not found",
    "Conflict",
  ]);
  expect(new RcpError(-32099).message).toBe("Error");
  expect(toErrorObject(new Error("secret"))).toEqual({ code: -32603, message: "Internal error" });
});
