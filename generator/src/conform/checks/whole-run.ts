/** Checks whose evidence is the whole run: every frame the server sent is well-formed (§4, §12). */
import { validateFrame } from "@rcp-gen/runtime/testing";
import { verdict, type CheckEntry } from "../check.js";

export const wholeRunChecks: CheckEntry[] = [
  {
    id: "envelope.frames-well-formed",
    section: "§4, §12, §14.1",
    level: "L0",
    phase: "main",
    title: "every frame the server sent is well-formed JSON-RPC 2.0 with an RCP envelope",
    run(ctx) {
      const problems = new Set<string>();
      let frames = 0;
      for (const frame of ctx.ledger.allReceived()) {
        if (typeof frame === "string") continue;
        frames++;
        const check = validateFrame(frame, { protocol: ctx.protocol });
        if (!check.ok)
          for (const problem of check.errors)
            problems.add(`${problem.message} in ${JSON.stringify(frame).slice(0, 80)}`);
      }
      return verdict(
        problems.size === 0,
        `${problems.size} problem${problems.size === 1 ? "" : "s"} in ${frames} frames: ${[...problems].slice(0, 3).join("; ")}`,
      );
    },
  },
];
