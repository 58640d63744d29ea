/**
 * Resumable streams (docs/resumable-streams.md), an extension a server advertises as
 * `x-rcp-resumable` (§6.2): a streamed call that opts in is numbered, opens with a retry hint
 * and a priming event, and a resume naming its priming event replays every frame and the
 * response; a resume naming a stream that does not exist is refused with 404 and -32015.
 */
import { skip, verdict, type CaseVerdict, type CheckEntry, type Verdict } from "../check.js";
import { SESSION_HEADER, type HttpSession } from "../http-session.js";

const CAPABILITY = "x-rcp-resumable";
const OPT_IN = "X-RCP-Resumable";
const NOT_FOUND = -32015;

/** The events of an SSE body: each one's fields, comments left out. */
function events(body: string): Array<Record<string, string>> {
  return body
    .replace(/\r\n?/g, "\n")
    .split("\n\n")
    .map((block) => block.split("\n").filter((line) => line !== "" && !line.startsWith(":")))
    .filter((lines) => lines.length > 0)
    .map((lines) =>
      Object.fromEntries(
        lines.map((line) => {
          const colon = line.indexOf(":");
          return [line.slice(0, colon), line.slice(colon + 1).replace(/^ /, "")];
        }),
      ),
    );
}

export const resumableChecks: CheckEntry[] = [
  {
    id: "resumable.replay",
    section: "§6.2 (x-rcp-resumable)",
    level: "L0",
    on: "http",
    phase: "main",
    title: "an advertised resumable stream is numbered, primed, and replayed whole on resume",
    async run(ctx): Promise<CaseVerdict[] | Verdict> {
      if (ctx.capabilities[CAPABILITY] === undefined) return skip(`${CAPABILITY} is not advertised`);
      const call = ctx
        .callable()
        .find(({ method }) => ctx.protocol.methods[method]!.streaming && ctx.protocol.methods[method]!.resumable);
      if (call === undefined) return skip("no resumable method is advertised");
      const session = ctx.session as HttpSession;
      const sessionHeaders: Record<string, string> =
        session.token === undefined ? {} : { [SESSION_HEADER]: session.token };
      const request = ctx.request(call.method, { ...call.params, _meta: { progressToken: ctx.id("token") } });
      // Straight on the wire: the priming event's empty data is no frame for the ledger's checks.
      const reply = await session.wire.post({ method: call.method }, JSON.stringify(request), {
        ...sessionHeaders,
        accept: "text/event-stream",
        [OPT_IN]: "1",
      });
      const sent = events(reply.body);
      const numbered = sent.filter((event) => event["id"] !== undefined);
      const stream = /^(.+):0$/.exec(numbered[0]?.["id"] ?? "")?.[1];
      const expected = numbered.map((_, seq) => `${stream}:${seq}`);
      const cases: CaseVerdict[] = [
        {
          key: "numbered",
          title: `${call.method}: a retry hint, a priming event <stream>:0, then frames <stream>:1, 2, … up to the response`,
          ...verdict(
            sent[0]?.["retry"] !== undefined &&
              stream !== undefined &&
              numbered[0]!["data"] === "" &&
              numbered.every((event, index) => event["id"] === expected[index]) &&
              numbered.slice(1).every((event) => event["data"] !== undefined),
            `events sent: ${JSON.stringify(sent.slice(0, 4))}…`,
          ),
        },
      ];
      if (stream === undefined) return cases;
      const replay = await session.wire.get({ ...sessionHeaders, "Last-Event-ID": `${stream}:0` });
      const replayed = events(replay.body).filter((event) => event["id"] !== undefined);
      cases.push({
        key: "replayed",
        title: `${call.method}: a resume naming the priming event gets every frame again, the response last`,
        ...verdict(
          replay.status === 200 &&
            JSON.stringify(replayed.map((event) => event["data"])) ===
              JSON.stringify(numbered.slice(1).map((event) => event["data"])),
          `HTTP ${replay.status}, ${replayed.length} frames replayed of ${numbered.length - 1}`,
        ),
      });
      const forged = await session.wire.get({ ...sessionHeaders, "Last-Event-ID": `${crypto.randomUUID()}:0` });
      const code = (() => {
        try {
          return (JSON.parse(forged.body) as { error?: { code?: number } }).error?.code;
        } catch {
          return undefined;
        }
      })();
      cases.push({
        key: "refused",
        title: "a resume naming a stream that does not exist gets 404 and -32015, no frame",
        ...verdict(forged.status === 404 && code === NOT_FOUND, `HTTP ${forged.status}, code ${String(code)}`),
      });
      return cases;
    },
  },
];
