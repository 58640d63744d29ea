/**
 * Prettier with fixed options, so output never depends on a user's prettier config. The
 * babel-ts parser prints generated TypeScript the same as the typescript parser, in half the time.
 */
export const prettierOptions = { parser: "babel-ts", printWidth: 120, trailingComma: "all", endOfLine: "lf" } as const;
