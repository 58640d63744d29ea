/**
 * Hand-written invalid values are rejected for the right reason: each fixture names the ajv
 * keyword and the instancePath of the offence, which is what becomes error.data.field of the
 * -32602 a server returns (§12, §12.1).
 */
import { describe, expect, it } from "vitest";
import { fixtureTable, loadFixtures } from "./fixture-corpus.js";
import { fixtureValidator } from "./fixture-validator.js";
import { loadRepoSchema } from "./schema-folder.js";

const folder = loadRepoSchema();
const validatorFor = fixtureValidator(folder);
const fixtures = loadFixtures("invalid");

describe("invalid values are rejected at the offending path", () => {
  it.each(fixtureTable("invalid"))("%s", (_title, fixture) => {
    const validate = validatorFor(fixture.ref);
    expect(validate(fixture.value)).toBe(false);
    const reasons = (validate.errors ?? []).map((error) => `${error.keyword} at "${error.instancePath}"`);
    expect(reasons).toContain(`${fixture.keyword} at "${fixture.instancePath}"`);
  });

  // The runtime names the first issue's path in error.data.field (§12.1), so it must be the offence.
  const paramsAndResults = fixtureTable("invalid").filter(([, fixture]) =>
    /\$defs\/(params|result|partial)$/.test(fixture.ref),
  );
  it.each(paramsAndResults)("the first issue points at the offence: %s", (_title, fixture) => {
    const validate = validatorFor(fixture.ref);
    validate(fixture.value);
    expect(validate.errors?.[0]?.instancePath).toBe(fixture.instancePath);
  });

  it("has a rejected value for every method's params and result", () => {
    const refs = new Set(fixtures.map((fixture) => fixture.ref));
    const missing = folder.methods
      .flatMap(({ file }) => [`${file}#/$defs/params`, `${file}#/$defs/result`])
      .filter((ref) => !refs.has(ref));
    expect(missing).toEqual([]);
  });
});
