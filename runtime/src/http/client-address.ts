/**
 * The address a request came from, for per-caller rate limits (§15.5). Behind a proxy the TCP
 * peer is the proxy, so `X-Forwarded-For` is read, but only when the peer is a proxy the
 * deployer trusts: anyone else could write any address there and get a fresh bucket per
 * request. The proxy appends the address it saw, so the answer is the rightmost entry that
 * is not itself a trusted proxy.
 */
import type { HttpRequestInfo } from "./options.js";

/** A request without a known peer (some fetch runtimes) shares this one bucket. */
const UNKNOWN_ADDRESS = "unknown";

export function clientAddress(request: HttpRequestInfo, trustedProxies: ReadonlySet<string>): string {
  const peer = request.remoteAddress === undefined ? undefined : plainAddress(request.remoteAddress);
  if (peer === undefined) return UNKNOWN_ADDRESS;
  if (!trustedProxies.has(peer)) return peer;
  const forwarded = request.headers["x-forwarded-for"];
  const hops = (Array.isArray(forwarded) ? forwarded.join(",") : (forwarded ?? "")).split(",");
  for (let index = hops.length - 1; index >= 0; index--) {
    const hop = plainAddress(hops[index]!.trim());
    if (hop !== "" && !trustedProxies.has(hop)) return hop;
  }
  return peer;
}

/** `::ffff:10.0.0.1` (IPv4 on a dual-stack socket) is `10.0.0.1`. */
export function plainAddress(address: string): string {
  return address.startsWith("::ffff:") && address.includes(".") ? address.slice(7) : address;
}
