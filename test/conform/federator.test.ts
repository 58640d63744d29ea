/**
 * `rcp-gen conform` against the federating server (§16) over stdio, in front of two demo
 * engines it starts itself: the federator is an RCP server like any other and must hold the
 * level it declares (§14), cancel and deadline included.
 */
import { afterAll, describe, expect, it } from "vitest";
import { STAGE_DELAY_META_KEY } from "../../docs/examples/demo-engine/server.js";
import { registryFolder } from "../federation/processes.js";
import { DEMO, runConform, type JsonReport } from "./conform-cli.js";

const registries = registryFolder();
afterAll(() => registries.remove());

describe("rcp-gen conform against the federating server", () => {
  it("certifies the level it declares over stdio, with no failure and no warning", async () => {
    const registry = registries.write("rcp.json", {
      engines: [
        { id: "one", transport: "stdio", command: [...DEMO, "--stdio"] },
        { id: "two", transport: "stdio", command: [...DEMO, "--stdio"], weight: 2 },
      ],
    });
    const slow = JSON.stringify({ [STAGE_DELAY_META_KEY]: 150 });
    const run = await runConform(["--json", "--slow-meta", slow, "--", ...DEMO, "--federate", registry, "--stdio"]);
    const report = JSON.parse(run.stdout) as JsonReport;
    expect(report.checks.filter((check) => check.status === "fail" || check.status === "warn")).toEqual([]);
    // Two demo engines: every mode, filters, citations (L1), plus streaming, a built-in rerank
    // and determinism of the §14.3 selection (L2).
    expect(report).toMatchObject({ declaredLevel: "L2", certifiedLevel: "L2", declarationHolds: true });
    const statusOf = (id: string) => report.checks.find((check) => check.id === id)?.status;
    expect([
      statusOf("deadline:enforced"),
      statusOf("cancel:effective"),
      statusOf("option.strict-false:retrieve.rerank.method"),
    ]).toEqual(["pass", "pass", "pass"]);
    expect(run.status).toBe(0);
  });
});
