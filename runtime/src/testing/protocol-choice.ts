/**
 * Which protocol a check uses: the one passed in, else the one pinned with useRcpProtocol,
 * else the one generated code defined in this process (generated/methods.ts calls
 * defineProtocol when it loads), so a test that imports its engine needs to name nothing.
 */
import { definedProtocols, type ProtocolDescriptor } from "../protocol/descriptor.js";

let pinned: ProtocolDescriptor | undefined;

/** Makes `protocol` the default of validateFrame, the guards and the vitest matchers. */
export function useRcpProtocol(protocol: ProtocolDescriptor | undefined): void {
  pinned = protocol;
}

export function chooseProtocol(explicit: ProtocolDescriptor | undefined): ProtocolDescriptor {
  if (explicit !== undefined) return explicit;
  if (pinned !== undefined) return pinned;
  const loaded = [...new Set(definedProtocols())];
  if (loaded.length === 1) return loaded[0]!;
  throw new Error(
    loaded.length === 0
      ? "No RCP protocol is loaded: import your generated code (e.g. generated/methods.js) or pass { protocol }"
      : `${loaded.length} RCP protocols are loaded: pass { protocol } or call useRcpProtocol(protocol)`,
  );
}
