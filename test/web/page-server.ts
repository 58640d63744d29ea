/**
 * A page for the browser tests, served from 127.0.0.1: its `index.html` at `/`, and its script
 * bundled by esbuild (platform browser, ESM, a production React build where React is used) at
 * `/<script name>.js`, which is what the page's `<script src>` names.
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { basename, extname, join } from "node:path";
import { build } from "esbuild";

export interface PageServer {
  readonly port: number;
  close(): Promise<void>;
}

/** Serves `folder/index.html` and `script` (in `folder`) bundled. */
export async function servePage(folder: string, script: string): Promise<PageServer> {
  const bundled = await build({
    entryPoints: [join(folder, script)],
    bundle: true,
    platform: "browser",
    format: "esm",
    define: { "process.env.NODE_ENV": '"production"' },
    write: false,
    logLevel: "silent",
  });
  const files: Record<string, { type: string; body: string }> = {
    "/": { type: "text/html", body: readFileSync(join(folder, "index.html"), "utf8") },
    [`/${basename(script, extname(script))}.js`]: { type: "text/javascript", body: bundled.outputFiles[0]!.text },
  };
  const server = createServer((request, response) => {
    const file = files[new URL(request.url ?? "/", "http://page").pathname];
    response.writeHead(file ? 200 : 404, { "content-type": file?.type ?? "text/plain" }).end(file?.body ?? "");
  });
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise((closed) => server.close(() => closed())),
  };
}
