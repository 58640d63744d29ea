/** Each export of a generated validators.ts and the ajv function behind it (`retrieveParams` -> `validate225`). */
export function validatorExports(code: string): Map<string, string> {
  return new Map(
    [
      ...code.matchAll(
        /^export const (\w+): (?:Validator|StandardValidator<\w+>) = (?:\/\* @__PURE__ \*\/ standardValidator\()?(validate\d+)\)?;$/gm,
      ),
    ].map((match) => [match[1]!, match[2]!]),
  );
}
