/**
 * Generated validators seen through `@standard-schema/spec`'s own types, as a library typed only
 * by the spec sees them (`npm test` runs tsc first): InferInput and InferOutput are the generated
 * types, and a spec-typed utility returns them.
 */
import type { StandardSchemaV1 } from "@standard-schema/spec";
import { describe, expect, expectTypeOf, it } from "vitest";
import type {
  ProgressNotificationParams,
  RetrieveParams,
  RetrievePartial,
  RetrieveResult,
} from "../../generated/types.js";
import {
  type progressNotificationParams,
  type retrievePartial,
  retrieveParams,
  type retrieveResult,
} from "../../generated/validators.js";

/** The kind of helper a form or router library writes against the spec alone. */
async function parseWith<Schema extends StandardSchemaV1>(
  schema: Schema,
  value: unknown,
): Promise<StandardSchemaV1.InferOutput<Schema>> {
  const result = await schema["~standard"].validate(value);
  if (result.issues)
    throw new Error(
      result.issues
        .map(
          (issue) =>
            `${issue.path?.map((key) => String(typeof key === "object" ? key.key : key)).join(".")}: ${issue.message}`,
        )
        .join("; "),
    );
  return result.value;
}

describe("generated validators under @standard-schema/spec's types", () => {
  it("infer the generated types for input and output", () => {
    expectTypeOf<StandardSchemaV1.InferInput<typeof retrieveParams>>().toEqualTypeOf<RetrieveParams>();
    expectTypeOf<StandardSchemaV1.InferOutput<typeof retrieveParams>>().toEqualTypeOf<RetrieveParams>();
    expectTypeOf<StandardSchemaV1.InferOutput<typeof retrieveResult>>().toEqualTypeOf<RetrieveResult>();
    expectTypeOf<StandardSchemaV1.InferOutput<typeof retrievePartial>>().toEqualTypeOf<RetrievePartial>();
    expectTypeOf<
      StandardSchemaV1.InferOutput<typeof progressNotificationParams>
    >().toEqualTypeOf<ProgressNotificationParams>();
    expectTypeOf<StandardSchemaV1.InferOutput<typeof retrieveParams>>().not.toEqualTypeOf<RetrieveResult>();
    expectTypeOf(retrieveParams).toExtend<StandardSchemaV1<RetrieveParams>>();
  });

  it("work in a utility typed only by the spec", async () => {
    const params = await parseWith(retrieveParams, { query: "compost", k: 2 });
    expectTypeOf(params).toEqualTypeOf<RetrieveParams>();
    expect(params.k).toBe(2);
    await expect(parseWith(retrieveParams, { query: "compost", k: "two" })).rejects.toThrow("k: must be integer");
  });
});
