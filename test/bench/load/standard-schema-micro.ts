/**
 * Scenario 15's measurement, in a process of its own: retrieve params checked through the
 * generated validator's Standard Schema `validate` against the plain validator call, per call
 * in ns, alternating A B B A; and the same on invalid params, where `validate` also builds its
 * issues. Prints one JSON line.
 */
import { RETRIEVE_PARAMS } from "../fixture.js";
import { median } from "../stats.js";
import { generatedValidators, nsPerCall } from "./validator-timing.js";

export interface StandardSchemaMicroResult {
  plainValidNs: number;
  standardValidNs: number;
  plainInvalidNs: number;
  standardInvalidNs: number;
}

const calls = Number(process.argv[2] ?? 100_000);
const retrieveParams = generatedValidators["retrieveParams"];
if (!retrieveParams) throw new Error("generated/validators.js has no retrieveParams");

const INVALID_PARAMS = { ...RETRIEVE_PARAMS, k: "three" };

const plain = (data: unknown) => retrieveParams(data);
const standard = (data: unknown) => retrieveParams["~standard"].validate(data).issues === undefined;
const contenders: Array<[keyof StandardSchemaMicroResult, (data: unknown) => boolean, unknown, boolean]> = [
  ["plainValidNs", plain, RETRIEVE_PARAMS, true],
  ["standardValidNs", standard, RETRIEVE_PARAMS, true],
  ["plainInvalidNs", plain, INVALID_PARAMS, false],
  ["standardInvalidNs", standard, INVALID_PARAMS, false],
];
const samples = new Map<string, number[]>();
// One untimed round first, then the order reversed every other round, so that neither side is
// always measured first after a change of call target.
for (const [, check, data, expected] of contenders) nsPerCall(calls, check, data, expected);
for (let round = 0; round < 6; round += 1)
  for (const [name, check, data, expected] of round % 2 === 0 ? contenders : [...contenders].reverse())
    samples.set(name, [...(samples.get(name) ?? []), nsPerCall(calls, check, data, expected)]);
const perCall = (name: keyof StandardSchemaMicroResult): number => median(samples.get(name) ?? []);
const output: StandardSchemaMicroResult = {
  plainValidNs: perCall("plainValidNs"),
  standardValidNs: perCall("standardValidNs"),
  plainInvalidNs: perCall("plainInvalidNs"),
  standardInvalidNs: perCall("standardInvalidNs"),
};
process.stdout.write(JSON.stringify(output) + "\n");
