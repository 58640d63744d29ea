/** `rcp-gen conform`'s command line: usage errors and a server that cannot start exit 2 with one clear line. */
import { expect, it } from "vitest";
import { runConform } from "./conform-cli.js";

it("exits 2 on usage errors, naming the problem, and prints usage on --help", async () => {
  const cases: Array<[string[], string]> = [
    [[], "give either --http <url> or -- <command> [args...], not both"],
    [
      ["--http", "http://127.0.0.1:1/rcp", "--", "node"],
      "give either --http <url> or -- <command> [args...], not both",
    ],
    [["--timeout", "soon", "--", "node"], "--timeout must be a positive integer of milliseconds, got soon"],
    [["--slow-meta", "[1]", "--", "node"], "--slow-meta must be a JSON object, got [1]"],
    [["--colour", "--", "node"], "Unknown option '--colour'"],
    [["--", "/nonexistent/rcp-server"], "cannot start /nonexistent/rcp-server: spawn /nonexistent/rcp-server ENOENT"],
  ];
  const runs = await Promise.all(cases.map(([args]) => runConform(args)));
  runs.forEach((run, index) => {
    expect(run.stderr.split("\n")[0], cases[index]![0].join(" ")).toContain(`rcp-gen conform: ${cases[index]![1]}`);
    expect(run.status).toBe(2);
  });
  const help = await runConform(["--help"]);
  expect(help.stdout).toContain("rcp-gen conform [options] --http <url>");
  expect(help.status).toBe(0);
});
