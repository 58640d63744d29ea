/**
 * Every JSON example of the spec (§4, §6, §7, §8, §9, §14, §16, §17, Appendix D) validates
 * against the schema of its shape; the spec's `…` placeholders are replaced by concrete values
 * and its `?` optional markers dropped. Each fixture cites its section.
 */
import { describe, expect, it } from "vitest";
import { fixtureTable, loadFixtures } from "./fixture-corpus.js";
import { fixtureValidator } from "./fixture-validator.js";
import { loadRepoSchema } from "./schema-folder.js";

const validatorFor = fixtureValidator(loadRepoSchema());
const fixtures = loadFixtures("valid");

describe("spec examples validate", () => {
  it.each(fixtureTable("valid"))("%s", (_title, fixture) => {
    const validate = validatorFor(fixture.ref);
    expect(validate(fixture.value), JSON.stringify(validate.errors)).toBe(true);
  });

  it("covers every method's params and result and every notification", () => {
    const folder = loadRepoSchema();
    const refs = new Set(fixtures.map((fixture) => fixture.ref));
    for (const { file } of folder.methods) {
      expect(refs, file).toContain(`${file}#/$defs/params`);
      expect(refs, file).toContain(`${file}#/$defs/result`);
    }
    for (const { file } of folder.notifications) expect(refs, file).toContain(`${file}#/$defs/params`);
  });

  it("checks each Appendix D frame against the bundle", () => {
    const frames = fixtures.filter((fixture) => fixture.ref === "bundle" && fixture.spec === "Appendix D");
    expect(frames.map((fixture) => fixture.name.replace(/^.*appendix-d-/, "")).sort()).toEqual([
      "1-initialize.json",
      "1-result.json",
      "2-progress-1.json",
      "2-progress-2.json",
      "2-result.json",
      "2-retrieve.json",
      "3-cancel.json",
      "3-cancelled.json",
      "3-graph.json",
      "4-result.json",
      "4-shutdown.json",
    ]);
  });
});
