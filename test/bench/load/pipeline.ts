/**
 * Keeps `inFlight` requests outstanding on a stdio connection until `total` have been answered.
 * Responses are counted, not correlated (every request is the same); every 64th one is parsed and
 * checked for a result, and any error response fails the run.
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
  let sent = 0;
  let received = 0;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${received}/${run.total} answered after ${run.timeoutMs} ms; stderr: ${run.connection.stderr()}`)),
      run.timeoutMs,
    );
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
        clearTimeout(timer);
        reject(new Error(`server answered with an error: ${json.slice(0, 300)}`));
        return;
      }
      if (received === run.total) {
        clearTimeout(timer);
        resolve();
        return;
      }
      topUp();
    };
    topUp();
  });
}
