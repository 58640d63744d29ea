/**
 * rcp-gen/mock: an RCP engine made from a schema folder alone, for testing a client before the
 * engine exists and against bad servers (docs/testing-a-client.md). It loads json-schema-faker,
 * so it is an entry of its own rather than part of `rcp-gen`'s main one.
 *
 * @module rcp-gen/mock
 */
export {
  createMockServer,
  FAULT_META_KEY,
  parseFailRule,
  type ClientReport,
  type ClientViolation,
  type FailRule,
  type MockFaults,
  type MockOptions,
  type MockServer,
} from "./mock-server.js";
