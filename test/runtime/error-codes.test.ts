/**
 * One table of error codes: schema/errors.json. The runtime's ErrorCode (which its own code
 * throws by symbol) holds exactly the schema's codes under the schema's symbols, and its
 * rcpErrors, which the generated protocol descriptor refers to, is the schema's table as it is.
 */
import { expect, it } from "vitest";
import { protocol } from "../../generated/methods.js";
import { ErrorCode, rcpErrors } from "../../runtime/src/protocol/errors.js";
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
