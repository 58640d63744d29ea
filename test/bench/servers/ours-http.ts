/** Ours over node:http (§5.2), announcing its base URL (`.../rcp`) once listening. */
import { listen } from "@rcp-gen/runtime/node";
import { announceUrl } from "./announce.js";
import { createOursServer } from "./ours-server.js";

const listening = await listen(createOursServer(), { port: 0, host: "127.0.0.1" });
announceUrl(listening.url);
