/**
 * rcp-gen's sub-commands: `rcp-gen <name> ...` loads and runs the file named here (only that
 * one), and anything else is the generator itself (generate-command.ts). Adding a command is
 * one line here and one file beside this one exporting `command`.
 */
import type { Command } from "./usage.js";

export interface SubCommand {
  /** How it is called, for the help: `init [dir]`. */
  readonly usage: string;
  readonly summary: string;
  readonly load: () => Promise<{ command: Command }>;
}

export const subCommands: Readonly<Record<string, SubCommand>> = {
  init: {
    usage: "init [dir]",
    summary: "scaffold a working RCP engine project in dir (default: the current folder)",
    load: () => import("./init-command.js"),
  },
  conform: {
    usage: "conform (-- <command> [args...] | --http <url>)",
    summary: "run the conformance suite against a server and print a verdict per level",
    load: () => import("./conform-command.js"),
  },
  breaking: {
    usage: "breaking --against <dir | git-ref>",
    summary: "report the schema changes that break deployed peers or generated code; exit 1 if any",
    load: () => import("./breaking-command.js"),
  },
  lint: {
    usage: "lint",
    summary: "check the schema folder against the lint rules the settings turn on; exit 1 on an error",
    load: () => import("./lint-command.js"),
  },
  mcp: {
    usage: "mcp (-- <command> [args...] | --http <url>) [--listen <port>]",
    summary: "serve an RCP engine as an MCP server (stdio, or Streamable HTTP at /mcp)",
    load: () => import("./mcp-command.js"),
  },
  inspect: {
    usage: "inspect (-- <command> [args...] | --http <url>)",
    summary: "serve a web page on 127.0.0.1 to call an engine, watch its progress and frames, and cancel",
    load: () => import("./inspect-command.js"),
  },
};
