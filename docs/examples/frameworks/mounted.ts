/** What each framework example returns: the RCP base URL it serves and how to stop it. */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface Mounted {
  /** e.g. `http://127.0.0.1:41234/rcp` */
  url: string;
  close(): Promise<void>;
}

/** The base URL of `/rcp` on a listening node:http server. */
export function rcpUrl(server: Server): string {
  const { address, port } = server.address() as AddressInfo;
  return `http://${address}:${port}/rcp`;
}

/** Stops listening and ends idle keep-alive connections, which would otherwise hold `close` open. */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}
