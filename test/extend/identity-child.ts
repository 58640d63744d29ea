/**
 * The engine whose handlers echo the caller's identity (test/fixtures/extend/identity-server.ts),
 * compiled, as the identity and interceptor tests run it in a child process.
 */
import { fileURLToPath } from "node:url";

export const IDENTITY_SERVER = fileURLToPath(
  new URL("../../dist/test/fixtures/extend/identity-server.js", import.meta.url),
);
