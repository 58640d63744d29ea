/** Ours over node:http (§5.2), announcing its base URL on stdout once listening. */
import { createOursServer } from "./ours-server.js";

const listening = await createOursServer().listen({ port: 0, host: "127.0.0.1" });
process.stdout.write(JSON.stringify({ ready: true, url: listening.url }) + "\n");
process.on("SIGTERM", () => void listening.close().then(() => process.exit(0)));
