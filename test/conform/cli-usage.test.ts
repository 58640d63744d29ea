/** `rcp-gen conform`'s command line: usage errors and a server that cannot start exit 2 with one clear line. */
import { expect, it } from "vitest";
import { runConform } from "./conform-cli.js";

it("exits 2 on usage errors, naming the problem, and prints usage on --help", async () => {
  const cases: Array<[string[], string]> = [
    [[], "rcp-gen: give either --http <url> or -- <command> [args...], not both"],
    [
      ["--http", "http://127.0.0.1:1/rcp", "--", "node"],
      "rcp-gen: give either --http <url> or -- <command> [args...], not both",
    ],
    [["--timeout", "soon", "--", "node"], "rcp-gen: --timeout must be a positive integer of milliseconds, got soon"],
    [["--slow-meta", "[1]", "--", "node"], "rcp-gen: --slow-meta must be a JSON object, got [1]"],
    [["--level", "L3", "--", "node"], 'rcp-gen: --level cannot be "L3" (choices: "L0", "L1", "L2")'],
    [["--colour", "--", "node"], "rcp-gen: unknown option --colour"],
    [
      ["--", "/nonexistent/rcp-server"],
      "rcp-gen conform: cannot start /nonexistent/rcp-server: spawn /nonexistent/rcp-server ENOENT",
    ],
  ];
  const runs = await Promise.all(cases.map(([args]) => runConform(args)));
  runs.forEach((run, index) => {
    expect(run.stderr.split("\n")[0], cases[index]![0].join(" ")).toBe(cases[index]![1]);
    expect(run.status).toBe(2);
  });
  expect(runs.slice(0, -1).map((run) => run.stderr.split("\n")[1])).toEqual(
    Array(cases.length - 1).fill("hint: rcp-gen conform --help lists its options"),
  );
  const help = await runConform(["--help"]);
  expect(help.stdout).toContain("rcp-gen conform [options] --http <url>");
  expect(help.status).toBe(0);
});
