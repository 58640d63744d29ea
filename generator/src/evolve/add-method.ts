/**
 * `rcp-gen add method <name>`: a method file for a new vendor method (§6.2), laid out as the
 * folder's own (docs/schema.md): `x-rcp` gated by the vendor's capability, params and result
 * with one member each and `_meta`, every description a sentence to fill in. As written it
 * loads, passes `rcp-gen lint`, and generates a typed handler; then the user makes it theirs.
 */
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import methodFile from "../load/meta-schema/method-file.json" with { type: "json" };
import { loadSchemaFolder } from "../load/loader.js";
import { methodFileOf } from "./lint-rules.js";

/** A name that cannot be added, or a folder it cannot be added to. */
export class AddMethodRefused extends Error {
  override name = "AddMethodRefused";
}

const wireName = new RegExp(methodFile.$defs.wireName.pattern);

export interface AddedMethod {
  /** The file written, relative to the schema folder. */
  readonly file: string;
  /** The capability key that gates the method. */
  readonly capability: string;
}

/** Writes the method's file into `schemaDir`; `label` names that folder in refusals (default: its path). */
export function addMethod(schemaDir: string, method: string, label = schemaDir): AddedMethod {
  if (!wireName.test(method))
    throw new AddMethodRefused(
      `"${method}" is not a method name: a vendor method is x-<vendor>/<name>, lower case, words joined by -, e.g. x-acme/summarize (§6.2)`,
    );
  const vendor = /^x-[^/]+/.exec(method)?.[0];
  if (vendor === undefined)
    throw new AddMethodRefused(
      `"${method}" is a core name, which only a future RCP revision may add (§6.2): name it x-<vendor>/${method.replaceAll("/", "-")}`,
    );
  // The folder must load, so the new file joins a folder that generates.
  const folder = loadSchemaFolder(schemaDir);
  const file = methodFileOf(method);
  const existing = folder.methods.find((loaded) => loaded.method === method);
  if (existing !== undefined) throw new AddMethodRefused(`${method} already exists: ${join(label, existing.file)}`);
  if (existsSync(join(schemaDir, file)))
    throw new AddMethodRefused(`${join(label, file)} already exists, and holds no method ${method}`);
  writeFileSync(join(schemaDir, file), `${JSON.stringify(methodDocument(method, vendor), null, 2)}\n`);
  return { file, capability: vendor };
}

function methodDocument(method: string, capability: string): object {
  const meta = { $ref: "../meta.json#/$defs/meta", description: "Side-band data (§4.4)." };
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    title: method,
    description: `TODO: what ${method} does, in one sentence (the MCP tool and the docs show it).`,
    "x-rcp": { kind: "method", method, capability, beforeInitialize: false, streaming: false },
    $defs: {
      params: {
        description: `TODO: what a ${method} call asks for.`,
        type: "object",
        required: ["input"],
        examples: [{ input: "an example input" }],
        properties: {
          input: { type: "string", description: "TODO: this param, or replace it with yours." },
          _meta: meta,
        },
      },
      result: {
        description: `TODO: what ${method} answers.`,
        type: "object",
        required: ["output"],
        properties: {
          output: { type: "string", description: "TODO: this member, or replace it with yours." },
          _meta: meta,
        },
      },
    },
  };
}
