/**
 * Forward compatibility (§4.4, §4.6, §6.2): unknown fields in any object and unknown `_meta`
 * keys never make a valid message invalid. Every valid fixture is re-checked with an
 * `x-unknown` member added to every object at every depth, and with unknown `_meta` keys.
 */
import { describe, expect, it } from "vitest";
import { loadFixtures, type Fixture } from "./fixture-corpus.js";
import { fixtureValidator } from "./fixture-validator.js";
import { loadRepoSchema } from "./schema-folder.js";

const validatorFor = fixtureValidator(loadRepoSchema());
const fixtures = loadFixtures("valid");

// An object, so it also fits where §6 wants every capability value to be an object.
const unknownMember = { "x-unknown": { note: "ignored by a conforming peer" } };

/** A copy of `value` with `x-unknown` added to every object at every depth, and how many objects got it. */
function withUnknownEverywhere(value: unknown): { value: unknown; objects: number } {
  let objects = 0;
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (typeof node !== "object" || node === null) return node;
    objects += 1;
    const copy = Object.fromEntries(Object.entries(node).map(([key, child]) => [key, visit(child)]));
    return { ...copy, ...structuredClone(unknownMember) };
  };
  return { value: visit(value), objects };
}

const unknownMeta = { "com.example/trace": { span: 7 }, vendorFlag: true, progressToken: "t9" };

/** Adds unknown `_meta` keys to a params/result object, or to the params of a frame. */
function withUnknownMeta(fixture: Fixture): unknown {
  const value = structuredClone(fixture.value) as Record<string, Record<string, unknown>>;
  const target = fixture.ref === "bundle" ? value["params"] : value;
  if (target) target["_meta"] = { ...(target["_meta"] as object | undefined), ...unknownMeta };
  return value;
}

const carriesMeta = (fixture: Fixture) =>
  /^(methods|notifications)\/.*#\/\$defs\/(params|result)$/.test(fixture.ref) ||
  (fixture.ref === "bundle" && typeof (fixture.value as { params?: unknown }).params === "object");

describe("unknown members are accepted everywhere", () => {
  it.each(fixtures.map((fixture) => [fixture.name, fixture] as const))(
    "x-unknown at every depth of %s",
    (_name, fixture) => {
      const { value, objects } = withUnknownEverywhere(fixture.value);
      const validate = validatorFor(fixture.ref);
      expect(validate(value), JSON.stringify(validate.errors)).toBe(true);
      if (typeof fixture.value === "object" && fixture.value !== null) expect(objects).toBeGreaterThan(0);
    },
  );

  it.each(fixtures.filter(carriesMeta).map((fixture) => [fixture.name, fixture] as const))(
    "unknown _meta keys in %s",
    (_name, fixture) => {
      const validate = validatorFor(fixture.ref);
      expect(validate(withUnknownMeta(fixture)), JSON.stringify(validate.errors)).toBe(true);
    },
  );

  it("reaches the deepest objects: a filter leaf three levels down gets the member too", () => {
    const nested = { and: [{ or: [{ not: { field: "lang", op: "eq", value: "en" } }] }] };
    const { value, objects } = withUnknownEverywhere(nested);
    expect(objects).toBe(4);
    expect(value).toMatchObject({ and: [{ or: [{ not: { field: "lang", ...unknownMember } }] }] });
    expect(validatorFor("types/filter-clause.json")(value)).toBe(true);
  });
});
