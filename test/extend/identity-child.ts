/**
 * The engine whose handlers echo the caller's identity (test/fixtures/extend/identity-server.ts),
 * as the identity and interceptor tests run it in a child process.
 */
import { entryPath } from "../fixtures/entry.js";

export const IDENTITY_SERVER = entryPath("test/fixtures/extend/identity-server.ts");
