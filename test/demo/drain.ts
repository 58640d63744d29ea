import type {
  PipelineControl,
  RetrieveOutcome,
  RetrieveRequest,
  StageEvent,
} from "../../docs/examples/demo-engine/retrieve.js";
import type { DemoEngine } from "../../docs/examples/demo-engine/engine.js";

/** Runs one retrieve through the engine core, collecting its stage events and outcome. */
export async function drain(
  engine: DemoEngine,
  request: RetrieveRequest,
  control?: PipelineControl,
): Promise<{ events: StageEvent[]; outcome: RetrieveOutcome; ids: string[] }> {
  const run = engine.retrieve(request, control);
  const events: StageEvent[] = [];
  for (;;) {
    const step = await run.next();
    if (step.done) return { events, outcome: step.value, ids: step.value.hits.map((hit) => hit.id) };
    events.push(step.value);
  }
}
