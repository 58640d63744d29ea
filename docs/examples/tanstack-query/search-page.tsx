/**
 * A search page on TanStack Query (React): the `tanstack-query` target's retrieveQueryOptions
 * stream a retrieve, so the hits of each progress frame show while the engine works, and the
 * result replaces them when it arrives. Cancel stops the query, which cancels the call on the
 * engine (§7.14). The engine's URL, the query and an optional per-stage delay of the demo engine
 * come from the page's address: `?engine=http://127.0.0.1:8000/rcp&q=neural+networks&delayMs=300`.
 */
import { QueryClient, QueryClientProvider, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { createRoot } from "react-dom/client";
// client.js rather than index.js: index.js also exports the Node-only connectStdio.
import { connectHttpWith } from "../../../generated/client.js";
import { retrieveCall } from "../../../generated/methods.js";
import type { Meta, RetrieveParams } from "../../../generated/types.js";
import { retrieveQueryOptions } from "../../../generated/tanstack-query.js";

const address = new URL(location.href);
const engineUrl = address.searchParams.get("engine") ?? "http://127.0.0.1:8000/rcp";
const delayMs = Number(address.searchParams.get("delayMs") ?? "0");
const params: RetrieveParams = {
  query: address.searchParams.get("q") ?? "neural networks",
  k: 4,
  rerank: { method: "cross-encoder" },
  // The demo engine's own `_meta` key: sleep this long before each stage, to watch it stream.
  ...(delayMs > 0 ? { _meta: { "x-demo-delayMs": delayMs } as Meta } : {}),
};

const client = await connectHttpWith([retrieveCall], {
  clientInfo: { name: "tanstack-query-search", version: "1.0.0" },
  transport: { url: engineUrl },
});

function Search() {
  const queryClient = useQueryClient();
  const options = retrieveQueryOptions(client, params);
  const { data, error, fetchStatus } = useQuery(options);
  // What the page showed, in order: one line per partial, then the result.
  const [timeline, setTimeline] = useState<string[]>([]);
  const [cancelled, setCancelled] = useState(false);
  const partials = data?.partials.length ?? 0;
  const finished = data?.result !== undefined;
  useEffect(() => {
    if (partials > 0) setTimeline((lines) => [...lines, `partial ${partials}: ${data?.progress?.stage ?? ""}`]);
  }, [partials]);
  useEffect(() => {
    if (finished) setTimeline((lines) => [...lines, "result"]);
  }, [finished]);

  const hits = data?.result?.hits ?? data?.partials.at(-1)?.hits ?? [];
  const status = error
    ? "error"
    : finished
      ? "done"
      : cancelled
        ? "cancelled"
        : fetchStatus === "fetching"
          ? "streaming"
          : "idle";
  return (
    <main>
      <h1>{JSON.stringify(params.query)}</h1>
      <p>
        status: <span id="status">{status}</span>{" "}
        <button
          id="cancel"
          disabled={finished || cancelled}
          onClick={() => {
            setCancelled(true);
            void queryClient.cancelQueries({ queryKey: options.queryKey });
          }}
        >
          Cancel
        </button>
      </p>
      <p>
        {finished ? "result" : `${partials} partial(s)`}, progress {data?.progress?.progress ?? 0}
      </p>
      <ol id="hits">
        {hits.map((hit) => (
          <li key={hit.id} className={finished ? "hit final" : "hit partial"}>
            {hit.id} ({hit.score.toFixed(3)})
          </li>
        ))}
      </ol>
      <ol id="timeline">
        {timeline.map((line, index) => (
          <li key={index}>{line}</li>
        ))}
      </ol>
      {error ? <p id="error">{error.message}</p> : null}
    </main>
  );
}

const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } });
createRoot(document.getElementById("root")!).render(
  <QueryClientProvider client={queryClient}>
    <Search />
  </QueryClientProvider>,
);
