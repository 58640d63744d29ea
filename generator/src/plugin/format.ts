/**
 * Prettier with fixed options, so output never depends on a user's prettier config. The
 * babel-ts parser prints generated TypeScript the same as the typescript parser, in half the time.
 */
import { format } from "prettier";

export function formatTypeScript(text: string): Promise<string> {
  return format(text, { parser: "babel-ts", printWidth: 120, trailingComma: "all", endOfLine: "lf" });
}
