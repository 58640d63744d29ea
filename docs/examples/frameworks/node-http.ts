/**
 * The generated server in plain node:http: its request listener answers below /rcp and hands
 * anything else to the `next` function given as its third argument, here the app's own routes.
 */
import { createServer } from "node:http";
import type { RcpServer } from "@rcp-gen/runtime";
import { nodeListener } from "@rcp-gen/runtime/node";
import { closeServer, rcpUrl, type Mounted } from "./mounted.js";

export async function mountNodeHttp(server: RcpServer, port = 0): Promise<Mounted> {
  const rcp = nodeListener(server);
  const http = createServer((request, response) =>
    rcp(request, response, () => {
      if (request.url === "/health") response.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
      else response.writeHead(404).end();
    }),
  );
  await new Promise<void>((resolve) => http.listen(port, "127.0.0.1", resolve));
  return {
    url: rcpUrl(http),
    close: () => closeServer(http),
  };
}
