/**
 * The latency floor of scenario 12: `byte-relay.js <engine command...>`, a process between a
 * stdio client and a stdio engine that copies bytes both ways and does nothing else. What the
 * MCP bridge in its place costs beyond it is the bridge's own work (MCP framing, the SDK, the
 * RCP client inside the bridge).
 */
import { spawn } from "node:child_process";

const [command, ...args] = process.argv.slice(2);
if (command === undefined) throw new Error("byte-relay needs the engine's command");
const engine = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
process.stdin.pipe(engine.stdin);
engine.stdout.pipe(process.stdout);
engine.on("exit", (code) => process.exit(code ?? 0));
