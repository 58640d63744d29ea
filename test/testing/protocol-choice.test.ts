/**
 * Which protocol the testing kit checks against when none is passed: the one generated code
 * defined. This file imports no generated code, so it starts with none loaded.
 */
import { expect, it } from "vitest";
import { defineProtocol } from "@rcp-gen/runtime/codegen";
import { useRcpProtocol, validateFrame } from "@rcp-gen/runtime/testing";
import { methodDescriptor } from "../fixtures/descriptor-kit.js";

const ping = { jsonrpc: "2.0", id: 1, method: "ping" };
const descriptor = (name: string) => ({
  version: 1,
  notificationPrefix: "notifications/",
  logLevels: ["info"],
  methods: { [name]: methodDescriptor(name) },
  notifications: {},
  errors: {},
  meta: methodDescriptor("meta").params,
});

it("says how to give it a protocol when generated code defined none, or several", () => {
  expect(() => validateFrame(ping)).toThrow(
    "No RCP protocol is loaded: import your generated code (e.g. generated/methods.js) or pass { protocol }",
  );
  const first = defineProtocol(descriptor("ping"));
  expect(validateFrame(ping)).toMatchObject({ ok: true, kind: "request" });
  defineProtocol(descriptor("pong"));
  expect(() => validateFrame(ping)).toThrow(
    "2 RCP protocols are loaded: pass { protocol } or call useRcpProtocol(protocol)",
  );
  useRcpProtocol(first);
  expect(validateFrame(ping)).toMatchObject({ ok: true });
  useRcpProtocol(undefined);
  expect(validateFrame(ping, { protocol: first })).toMatchObject({ ok: true });
});
