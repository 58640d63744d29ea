/**
 * `npm run dev`: node --watch runs this again on every change under schema/ or src/. It
 * regenerates src/generated/ when schema/ changed, rebuilds dist/ with tsc, then serves as
 * dist/server.js does (its arguments pass through: `npm run dev -- --port 9000`).
 */
import { execFileSync } from "node:child_process";

const run = (command: string, args: string[], stdio: "inherit" | "ignore" = "inherit") =>
  execFileSync(command, args, { stdio, shell: process.platform === "win32" });

try {
  run("rcp-gen", ["--check", "--quiet"], "ignore");
} catch {
  // Stale: regenerating rewrites src/generated/, which starts one more (up to date) run.
  run("rcp-gen", ["--quiet"]);
}
run("tsc", []);
await import("./server.js");
