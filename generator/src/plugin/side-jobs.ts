/**
 * The work a run hands to its side thread (side-thread.ts): formatting a file with prettier, and
 * turning the type schema into declarations with json-schema-to-typescript. Both take plain
 * text or JSON and give text, so they run the same in the thread or, from sources, in-process.
 */
import type { Options as DeclarationOptions } from "json-schema-to-typescript";
import { prettierOptions } from "./prettier-options.js";

export type SideJob =
  | { readonly kind: "format"; readonly text: string }
  | {
      readonly kind: "declarations";
      readonly schema: object;
      readonly rootName: string;
      readonly options: Partial<DeclarationOptions>;
    };

export async function runSideJob(job: SideJob): Promise<string> {
  if (job.kind === "format") return (await import("prettier")).format(job.text, prettierOptions);
  return (await import("json-schema-to-typescript")).compile(job.schema as never, job.rootName, job.options);
}
