/**
 * Real redis-server and HAProxy for the scale-out tests: each in its own temp dir, in the
 * foreground (never daemonized), on a unix socket or an OS-chosen port, and killed by `stop`.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { freePort } from "../net/free-port.js";

export const REDIS_SERVER = "/usr/bin/redis-server";
export const HAPROXY = "/usr/sbin/haproxy";

/**
 * Why `what` cannot run here, in one line, or undefined when it can. Only outside CI: .ci/run
 * installs both and sets RCP_REQUIRE_SCALE, so there a missing binary throws.
 */
export function missingBinaries(what = "scale-out tests"): string | undefined {
  const missing = [REDIS_SERVER, HAPROXY].filter((binary) => !existsSync(binary));
  if (missing.length === 0) return undefined;
  if (process.env.RCP_REQUIRE_SCALE === "1")
    throw new Error(`${missing.join(", ")} not installed; .ci/run installs them`);
  return `${what} skipped: ${missing.join(", ")} not installed (apt-get install -y redis-server haproxy, as bash .ci/run does)`;
}

export interface Child {
  readonly process: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

function run(command: string, args: string[], cwd: string): Child {
  const child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.setEncoding("utf8").on("data", (text: string) => (output += text));
  child.stderr.setEncoding("utf8").on("data", (text: string) => (output += text));
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  return {
    process: child,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    },
  };
}

export interface RedisServer extends Child {
  /** A new client with the options docs/deployment.md recommends. */
  client(): Redis;
  readonly socket: string;
}

/** A client of the redis-server at the unix socket `socket`, with the options docs/deployment.md recommends. */
export function redisClient(socket: string): Redis {
  return new Redis({
    path: socket,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: 1000,
    // Connected by the caller's connect(), which resolves once the client is ready: with no
    // offline queue, a call made before then fails.
    lazyConnect: true,
  });
}

export async function startRedis(): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), "rcp-redis-"));
  const socket = join(dir, "redis.sock");
  const child = run(
    REDIS_SERVER,
    ["--port", "0", "--unixsocket", socket, "--save", "", "--appendonly", "no", "--dir", dir, "--daemonize", "no"],
    dir,
  );
  await until(
    () => existsSync(socket),
    () => child.output(),
  );
  return {
    ...child,
    socket,
    client: () => redisClient(socket),
    async stop() {
      await child.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface Haproxy extends Child {
  readonly url: string;
}

/** HAProxy with the shipped example config, its ports and servers filled in. */
export async function startHaproxy(template: string, backends: readonly string[]): Promise<Haproxy> {
  const dir = mkdtempSync(join(tmpdir(), "rcp-haproxy-"));
  const port = await freePort();
  const file = join(dir, "haproxy.cfg");
  writeFileSync(file, haproxyConfig(template, port, backends));
  const child = run(HAPROXY, ["-db", "-f", file], dir);
  await until(
    () => canConnect(port),
    () => child.output(),
  );
  return {
    ...child,
    url: `http://127.0.0.1:${port}`,
    async stop() {
      await child.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The example config with its listening port and one `server` line per backend URL. */
export function haproxyConfig(template: string, port: number, backends: readonly string[]): string {
  const servers = backends
    .map((backend, index) => `    server replica${index + 1} ${new URL(backend).host} check inter 1s`)
    .join("\n");
  return readFileSync(template, "utf8")
    .replace("bind 127.0.0.1:8080", `bind 127.0.0.1:${port}`)
    .replace(/^ *server replica\d+ .*$\n?/gm, "")
    .replace("# servers", `# servers\n${servers}`);
}

export function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
    socket.connect(port, "127.0.0.1");
  });
}

export async function until(ready: () => boolean | Promise<boolean>, output: () => string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    if (await ready()) return;
    await new Promise((done) => setTimeout(done, 25));
  }
  throw new Error(`did not start:\n${output()}`);
}
