/** Ours over node:http (§5.2), announcing its base URL (`.../rcp`) once listening. */
import { announceUrl } from "./announce.js";
import { createOursServer } from "./ours-server.js";

const listening = await createOursServer().listen({ port: 0, host: "127.0.0.1" });
announceUrl(listening.url);
