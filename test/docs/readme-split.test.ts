/**
 * README.md was one 63 KB page; it is now a short front door and the rest lives in docs/ and
 * ARCHITECTURE.md. This is the map from each section of the old README to its new home, with a
 * sentence of the old section that must still be there, so nothing it said is dropped on the
 * way, and the front door stays short with "write a server" one click away.
 */
import { describe, expect, it } from "vitest";
import { anchorsOf, readDocument } from "./documents.js";

/** Old README section -> [new page, its heading anchor ("" for the page itself), a phrase kept]. */
const homes: Record<string, [string, string, string]> = {
  "rcp-gen (introduction)": ["README.md", "", "Adding a method means editing the schema only."],
  "Quick start": ["docs/getting-started.md", "try-it-in-this-repository", "the funnel filling stage by stage"],
  "Use rcp-gen in your own project": [
    "docs/getting-started.md",
    "use-rcp-gen-in-your-own-project",
    "Generated code is ESM only.",
  ],
  "In one command: rcp-gen init": ["docs/getting-started.md", "in-one-command-rcp-gen-init", "`test/frames.test.ts`"],
  "By hand": ["docs/getting-started.md", "by-hand", "this runs in-process through `server.fetch`"],
  Layout: ["ARCHITECTURE.md", "layout", "targets/ (the built-in targets, one file each"],
  "rcp-gen (the command)": ["docs/cli.md", "generating", "the output folder, replaced as a whole"],
  "rcp-gen: settings": ["docs/cli.md", "settings", "a `package.json` without the key ends the search"],
  "rcp-gen: the generated files": ["docs/generated-code.md", "the-files", "the one place hashes live"],
  "Documentation: OpenRPC and Markdown": [
    "docs/generated-code.md",
    "documentation-openrpc-and-markdown",
    "OpenRPC's playground",
  ],
  Plugins: ["docs/plugins.md", "", "A plugin adds outputs without forking rcp-gen"],
  "Writing a server": ["docs/server.md", "", "Results are validated too (`validateResults: false` turns that off)."],
  "Writing a client": ["docs/client.md", "", "the §12.2 `retryable` verdict"],
  "In the browser and on edge runtimes": [
    "docs/browser-and-edge.md",
    "",
    "Cloudflare's `wrangler` bundles it as it is",
  ],
  "Extension points": ["docs/extension-points.md", "", "what a deployment adds around the generated code"],
  "Server interceptors and caller identity": [
    "docs/extension-points.md",
    "server-interceptors-and-caller-identity",
    "connect-es's shape",
  ],
  "Client interceptors and retries": [
    "docs/extension-points.md",
    "client-interceptors-and-retries",
    "full-jitter exponential backoff",
  ],
  "Mounting in a framework": [
    "docs/extension-points.md",
    "mounting-in-a-framework",
    "Express also tolerates a body parser mounted first",
  ],
  "Tracing with OpenTelemetry": [
    "docs/extension-points.md",
    "tracing-with-opentelemetry",
    "where §17.2 puts trace correlation",
  ],
  "Testing your engine": ["docs/testing.md", "", "toBeWellFormedProgressStream()"],
  "Testing: conformance": [
    "docs/testing.md",
    "conformance-rcp-gen-conform",
    "A failed SHOULD is a warning and lowers no level.",
  ],
  "Testing: conform options": ["docs/cli.md", "rcp-gen-conform", "`--slow-meta <json>`"],
  "The demo engine": ["docs/demo-engine.md", "", "It declares L2 and its tests prove it."],
  Federation: [
    "docs/federation.md",
    "",
    "A registry that points back at its own federator therefore ends after one hop.",
  ],
  "The schema folder": ["docs/schema.md", "", "No protocol object sets `additionalProperties: false` (§4.6)"],
  "A method file": ["docs/schema.md", "a-method-file", "Paths in `x-rcp` are dotted"],
  "Adding a method": ["docs/schema.md", "adding-a-method", "Nothing in `generator/` or `runtime/` changes."],
  Interoperability: ["docs/interoperability.md", "", "reference Node SDK example server"],
};

describe.each(Object.entries(homes))("the old README's %s", (_section, [page, anchor, phrase]) => {
  it(`lives in ${page}${anchor === "" ? "" : `#${anchor}`}`, () => {
    const text = readDocument(page);
    if (anchor !== "") expect([...anchorsOf(text)]).toContain(anchor);
    expect(text.replace(/\s+/g, " ")).toContain(phrase);
  });
});

describe("README.md", () => {
  const readme = readDocument("README.md");

  it("is at most 10 KB", () => {
    expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(10 * 1024);
  });

  it("links to writing a server, and to every guide and reference in docs/", () => {
    expect(readme).toMatch(/\[Write a server →\]\(docs\/server\.md\)/);
    const linked = new Set(
      [...new Set(Object.values(homes).map(([page]) => page))].filter((page) => page.startsWith("docs/")),
    );
    for (const page of linked) expect(readme).toContain(`](${page})`);
    expect(readme).toContain("](SECURITY.md)");
  });
});
