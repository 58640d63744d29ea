/**
 * The common life of a load generator process: its config is JSON in argv[2]; it prints its
 * result as one JSON line on stdout; any failure, or running past `timeoutMs`, is one line on
 * stderr and exit code 1 (the exit also kills any server it spawned, see processes.ts).
 */

export function loadConfig<C extends { timeoutMs: number }>(): C {
  return JSON.parse(process.argv[2] ?? "{}") as C;
}

export async function reportResult<R>(name: string, timeoutMs: number, produce: () => Promise<R>): Promise<void> {
  const fail = (message: string): never => {
    process.stderr.write(`${name}: ${message}\n`);
    process.exit(1);
  };
  const deadline = setTimeout(() => fail(`not done within ${timeoutMs} ms`), timeoutMs);
  try {
    process.stdout.write(JSON.stringify(await produce()) + "\n");
  } catch (error) {
    fail((error as Error).message);
  } finally {
    clearTimeout(deadline);
  }
}
