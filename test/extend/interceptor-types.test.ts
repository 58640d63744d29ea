/**
 * What the interceptor types accept, checked by the compiler (`npm test` runs tsc first): a
 * universal interceptor fits both sides, a per-method one fits its side, a side's own does not
 * fit the other side.
 */
import { expect, it } from "vitest";
import type { RcpMethods } from "../../generated/client.js";
import type { BaseClientOptions } from "../../runtime/src/client/base-client.js";
import type {
  ClientCall,
  ClientCallOf,
  Interceptor,
  ServerCall,
  ServerCallOf,
  ServerOptionsBase,
  UniversalInterceptor,
} from "../../runtime/src/protocol/types.js";

type ServerSlot = NonNullable<ServerOptionsBase<object>["interceptors"]>[number];
type ClientSlot = NonNullable<BaseClientOptions["interceptors"]>[number];

const universal: UniversalInterceptor = (next) => (call) => next(call);
const server: Interceptor<ServerCall> = (next) => (call) => next({ ...call, meta: { ...call.meta, by: call.ctx.id } });
const client: Interceptor<ClientCall> = (next) => (call) => next({ ...call, headers: { "x-a": "1" } });
const typedServer: Interceptor<ServerCallOf<RcpMethods>> = (next) => (call) =>
  call.method === "index/add" ? next({ ...call, params: { ...call.params, documents: [] } }) : next(call);
const typedClient: Interceptor<ClientCallOf<RcpMethods>> = (next) => (call) =>
  call.method === "retrieve" ? next({ ...call, params: { ...call.params, k: 1 } }) : next(call);

it("fit where they should, and only there", () => {
  const serverSlots: ServerSlot[] = [universal, server, typedServer];
  const clientSlots: ClientSlot[] = [universal, client, typedClient];
  // @ts-expect-error a server interceptor reads ctx, which a client call lacks
  const wrongSide: ClientSlot = server;
  // @ts-expect-error a client interceptor sets headers, which a server call lacks
  const otherWrongSide: ServerSlot = client;
  expect([serverSlots, clientSlots, wrongSide, otherWrongSide].flat()).toHaveLength(8);
});
