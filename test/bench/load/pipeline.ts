/**
 * Keeps `inFlight` requests outstanding on a stdio connection until `total` have been answered.
 * Responses are counted, not correlated (every request is the same); every 64th one is parsed and
 * checked for a result, and any error response fails the run. Requests are topped up once per
 * chunk the server wrote, in one write, so the generator costs little CPU per request.
 */
import { DIALECTS, type DialectName } from "./dialects.js";
import type { StdioConnection } from "./stdio-connection.js";

export interface PipelineRun {
  connection: StdioConnection;
  dialect: DialectName;
  total: number;
  inFlight: number;
  timeoutMs: number;
  firstId: number;
}

function looksFailed(json: string): boolean {
  return json.includes('"error":') || json.includes('"isError":true');
}

export function runPipeline(run: PipelineRun): Promise<void> {
  const dialect = DIALECTS[run.dialect];
  const child = run.connection.child;
  let sent = 0;
  let received = 0;
  let settle: (error?: Error) => void = () => {};
  const done = new Promise<void>((resolve, reject) => {
    settle = (error) => (error ? reject(error) : resolve());
  });
  const fail = (why: string): void =>
    settle(new Error(`${received}/${run.total} answered, ${why}; stderr: ${run.connection.stderr()}`));
  const onExit = (): void => fail("then the server exited");
  const timer = setTimeout(() => fail(`none more within ${run.timeoutMs} ms`), run.timeoutMs);
  child.once("exit", onExit);
  const topUp = (): void => {
    const batch: string[] = [];
    while (sent < run.total && sent - received < run.inFlight) {
      batch.push(dialect.request(run.firstId + sent));
      sent += 1;
    }
    if (batch.length > 0) run.connection.sendMany(batch);
  };
  run.connection.onMessage = (json) => {
    received += 1;
    if (looksFailed(json) || (received % 64 === 0 && !("result" in (JSON.parse(json) as object)))) {
      fail(`the last with an error: ${json.slice(0, 300)}`);
    } else if (received === run.total) settle();
  };
  run.connection.onChunkRead = topUp;
  topUp();
  return done.finally(() => {
    clearTimeout(timer);
    child.off("exit", onExit);
    run.connection.onMessage = () => {};
    run.connection.onChunkRead = () => {};
  });
}
