/**
 * The vitest matchers, made for the generated protocol and registered with vitest's
 * `expect.extend`, against its frames: passing and failing, with the failure messages a test
 * shows; and matchers made for another protocol, which check against that one.
 */
import { describe, expect, it } from "vitest";
import { rcpMatchers } from "rcp-gen/vitest";
import { protocol } from "../../generated/methods.js";
import { methodDescriptor } from "../fixtures/descriptor-kit.js";

expect.extend(rcpMatchers(protocol));

const retrieve = (params: object) => ({
  jsonrpc: "2.0",
  id: 1,
  method: "retrieve",
  params: { query: "attention", k: 3, ...params },
});
const failure = (assertion: () => void): string => {
  try {
    assertion();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("the assertion passed");
};

describe("toBeValidRcpFrame, toBeRcpRequest, toBeRcpResult", () => {
  it("pass for valid frames and fail with one line per problem", () => {
    expect(retrieve({})).toBeValidRcpFrame();
    expect(retrieve({})).toBeRcpRequest("retrieve");
    expect({ jsonrpc: "2.0", id: 1, result: { hits: [] } }).toBeRcpResult("retrieve");
    expect(failure(() => expect(retrieve({ k: "two", mode: "fast" })).toBeValidRcpFrame())).toBe(
      'expected a valid RCP frame:\n  params.k: expected an integer, found "two"\n  params.mode: expected one of "dense", "sparse", "hybrid", found "fast"',
    );
    expect(failure(() => expect(retrieve({})).toBeRcpRequest("ping"))).toBe(
      "expected a ping request, found a retrieve request",
    );
    expect(failure(() => expect({ jsonrpc: "2.0", id: 1, result: { hits: "x" } }).toBeRcpResult("retrieve"))).toBe(
      'expected a result response to retrieve:\n  result.hits: expected an array, found "x"',
    );
    expect(
      failure(() => expect({ jsonrpc: "2.0", id: 1, error: { code: -32602, message: "m" } }).toBeRcpResult()),
    ).toBe("expected a result response, found an error response");
  });

  it("check a result against the request it answers", () => {
    const answer = { jsonrpc: "2.0", id: 2, result: { hits: [] } };
    expect(failure(() => expect(answer).toBeValidRcpFrame({ request: retrieve({}) }))).toBe(
      "expected a valid RCP frame:\n  id: expected 1, the id of the request (§4.7), found 2",
    );
  });

  it("negate", () => {
    expect(retrieve({ k: -1 })).not.toBeValidRcpFrame();
    expect(failure(() => expect(retrieve({})).not.toBeValidRcpFrame())).toBe(
      "expected not a valid RCP frame, but it is a request",
    );
  });
});

describe("toBeRcpError", () => {
  const invalid = { jsonrpc: "2.0", id: 1, error: { code: -32602, message: "Invalid params", data: { field: "k" } } };

  it("matches the code and error.data.field (§12.1), naming codes by their symbols", () => {
    expect(invalid).toBeRcpError(-32602, { field: "k" });
    expect(failure(() => expect(invalid).toBeRcpError(-32005, { field: "mode" }))).toBe(
      'expected an error response -32005 (OptionUnsupported):\n  error.code: expected -32005 (OptionUnsupported), found -32602 (InvalidParams)\n  error.data.field: expected "mode", found "k"',
    );
    expect(failure(() => expect({ jsonrpc: "2.0", id: 1, result: {} }).toBeRcpError(-32602))).toBe(
      "expected an error response -32602 (InvalidParams), found a result response",
    );
  });
});

describe("toBeWellFormedProgressStream", () => {
  const progress = (value: number) => ({
    jsonrpc: "2.0",
    method: "notifications/progress",
    params: { progressToken: 7, progress: value },
  });
  const final = { jsonrpc: "2.0", id: 1, result: { hits: [] } };

  it("accepts a recorded stream and names what is wrong with a broken one", () => {
    expect([progress(0.1), progress(0.5), final]).toBeWellFormedProgressStream({ method: "retrieve" });
    expect(failure(() => expect([progress(0.5), progress(0.1), final, final]).toBeWellFormedProgressStream())).toBe(
      [
        "expected a well-formed progress stream:",
        "  [1].params.progress: expected at least 0.5, the progress of frame [0] (progress never goes down), found 0.1",
        "  [3]: expected nothing after the final response [2] (§5.2), found a response",
      ].join("\n"),
    );
  });
});

describe("rcpMatchers(protocol)", () => {
  it("checks against the protocol it was made for, whatever else the process loaded", () => {
    const pingOnly = {
      version: 1,
      notificationPrefix: "notifications/",
      logLevels: ["info"],
      methods: { ping: methodDescriptor("ping") },
      notifications: {},
      errors: {},
      meta: methodDescriptor("meta").params,
    };
    const pingMatchers = rcpMatchers(pingOnly);
    expect(pingMatchers.toBeRcpRequest({ jsonrpc: "2.0", id: 1, method: "ping" }, "ping").pass).toBe(true);
    expect(pingMatchers.toBeRcpRequest(retrieve({}), "retrieve").message()).toBe(
      'expected a retrieve request:\n  method: expected a method of the protocol, found "retrieve", which it does not define',
    );
    expect(retrieve({})).toBeRcpRequest("retrieve");
  });
});
