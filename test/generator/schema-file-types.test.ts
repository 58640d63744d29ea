/**
 * The x-rcp annotation types (generator/src/load/meta-schema/schema-files.ts) are written once,
 * beside the meta-schemas they describe; this keeps them equal: types are generated from the
 * meta-schemas' JSON with json-schema-to-typescript and each pair must be the same type
 * (readonly aside), checked by a real tsc run. A key added to a meta-schema and not to the
 * types (or the reverse) fails here.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { compile } from "json-schema-to-typescript";
import { afterAll, expect, it } from "vitest";
import { repoRoot } from "./run-cli.js";
import { nodeAt } from "./schema-fixture.js";
import { scratchFolder, typecheck } from "./typecheck.js";

const metaSchemaDir = join(repoRoot, "generator/src/load/meta-schema");
/** The object at `pointer` in the meta-schema file `name`. */
const readNode = (name: string, pointer: string) =>
  nodeAt(JSON.parse(readFileSync(join(metaSchemaDir, name), "utf8")), pointer, name);
const scratch = scratchFolder("schema-file-types-");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The annotation blocks of the meta-schemas, under the names schema-files.ts gives them. */
function annotationSchemas(): Record<string, unknown> {
  const methodDefs = readNode("method-file.json", "/$defs");
  const local = (text: string) =>
    text.replaceAll('"common.json#/$defs/', '"#/$defs/common_').replaceAll('"#/$defs/', '"#/$defs/');
  const definitions: Record<string, unknown> = {
    ...methodDefs,
    MethodAnnotation: methodDefs["annotation"],
    NotificationAnnotation: readNode("notification-file.json", "/properties/x-rcp"),
    TypeAnnotation: readNode("type-file.json", "/properties/x-rcp"),
    ProtocolAnnotation: readNode("protocol-file.json", "/properties/x-rcp"),
    ErrorCodeEntry: readNode("errors-file.json", "/properties/x-rcp/properties/codes/items"),
  };
  delete definitions["annotation"];
  const commonDefs = readNode("common.json", "/$defs");
  for (const [name, schema] of Object.entries(commonDefs)) definitions[`common_${name}`] = schema;
  // A `oneOf` of bare `required` lists (a gate has `in` or `requires`) constrains, it adds no shape.
  const gate = definitions["gate"] as Record<string, unknown>;
  delete gate["oneOf"];
  const merged = JSON.stringify({ title: "MetaSchemaTypes", type: "object", $defs: definitions });
  return JSON.parse(local(merged)) as Record<string, unknown>;
}

it("the x-rcp annotation types equal what the meta-schemas admit", async () => {
  const generated = await compile(annotationSchemas(), "MetaSchemaTypes", {
    bannerComment: "",
    additionalProperties: false,
    unreachableDefinitions: true,
    ignoreMinAndMaxItems: true,
  });
  writeFileSync(join(scratch, "from-meta-schema.ts"), generated);
  const written = relative(scratch, join(repoRoot, "generator/src/load/meta-schema/schema-files.js"));
  const pairs = [
    "MethodAnnotation",
    "NotificationAnnotation",
    "TypeAnnotation",
    "ProtocolAnnotation",
    "ErrorCodeEntry",
  ];
  writeFileSync(
    join(scratch, "check.ts"),
    [
      `import type * as Written from "${written}";`,
      'import type * as FromMetaSchema from "./from-meta-schema.js";',
      "type Writable<T> = T extends readonly (infer U)[] ? Writable<U>[] : T extends object ? { -readonly [K in keyof T]: Writable<T[K]> } : T;",
      // Identical, not merely assignable: an optional key on one side only is a difference too.
      "type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;",
      ...pairs.map(
        (name) =>
          `export const ${name[0]!.toLowerCase()}${name.slice(1)}: Same<Writable<Written.${name}>, Writable<FromMetaSchema.${name}>> = true;`,
      ),
    ].join("\n"),
  );
  const result = typecheck(scratch);
  expect(result.output).toBe("");
  expect(result.status).toBe(0);
});
