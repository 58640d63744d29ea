/**
 * Mistakes the generated types reject. TypeScript fails the build on an @ts-expect-error that
 * has nothing to suppress, so each line below one must keep failing; the test also compiles
 * this file without the directives and checks that each fails for the reason given.
 */
import { createServer, type RcpClient } from "./generated/index.js";

declare const client: RcpClient;
const base = { info: { name: "acme", version: "1.0.0" }, conformance: "L0" } as const;
const echoing = { ...base, capabilities: { streaming: {}, "x-acme": {} } };

// prettier-ignore
// @ts-expect-error advertising x-acme without the x-acme/echo handler
export const missingHandler = createServer({ ...base, capabilities: { "x-acme": {} }, handlers: {} });

// prettier-ignore
// @ts-expect-error a misspelt capability
export const misspeltCapability = createServer({ ...base, capabilities: { retreive: {} }, handlers: {} });

// prettier-ignore
// @ts-expect-error a progress partial of x-acme/echo is { word: string }
export const wrongYield = createServer({ ...echoing, handlers: { async *"x-acme/echo"(params) { yield { progress: 1, partial: { word: 3 } }; return { echo: params.text }; } } });

// prettier-ignore
// @ts-expect-error the result of x-acme/echo is { echo: string }
export const wrongReturn = createServer({ ...echoing, handlers: { async *"x-acme/echo"(params) { yield { progress: 1 }; return { echo: params.text.length }; } } });

// @ts-expect-error text is a string
export const wrongParam = () => client.xAcmeEcho({ text: 42 });

// @ts-expect-error a client method typo
export const methodTypo = () => client.xAcmeEhco({ text: "hi" });
