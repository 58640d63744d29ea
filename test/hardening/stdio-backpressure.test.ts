/**
 * A stdio client that stops reading (§5.1): the server must not buffer answers without
 * bound. Once its stdout pipe is full it stops reading stdin, so the client's writes back
 * up; when the client reads again every request is answered exactly once.
 */
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { HARDENING_SERVER } from "./children.js";

const REQUESTS = 100_000;
const request = (id: number) =>
  `{"jsonrpc":"2.0","id":${id},"method":"ping","params":{"nonce":"${"x".repeat(100)}"}}\n`;

describe("stdio backpressure (§5.1)", () => {
  it("a client that stops reading makes the server stop reading; every request is answered once it reads again", async () => {
    const child = spawn(process.execPath, [HARDENING_SERVER, "stdio"]);
    child.stdout.pause();
    let written = 0;
    const writeMore = (): void => {
      while (written < REQUESTS)
        if (!child.stdin.write(request(written++))) return void child.stdin.once("drain", writeMore);
    };
    writeMore();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    // ~10 MB of requests; the pipes and stream buffers hold a few hundred KB at most.
    expect(written).toBeLessThan(REQUESTS / 4);

    const answered = new Map<unknown, number>();
    let partial = "";
    child.stdout.setEncoding("utf8").on("data", (text: string) => {
      const lines = (partial + text).split("\n");
      partial = lines.pop()!;
      for (const line of lines) {
        const id = (JSON.parse(line) as { id: unknown }).id;
        answered.set(id, (answered.get(id) ?? 0) + 1);
      }
    });
    child.stdout.resume();
    for (let waited = 0; answered.size < REQUESTS && waited < 20_000; waited += 50)
      await new Promise((r) => setTimeout(r, 50));
    child.kill();
    expect(answered.size).toBe(REQUESTS);
    expect([...answered.values()].every((count) => count === 1)).toBe(true);
  });
});
