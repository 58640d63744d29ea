/** Prettier with fixed options, so output never depends on a user's prettier config. */
import { format } from "prettier";

export function formatModule(text: string, parser: "typescript" | "acorn"): Promise<string> {
  return format(text, { parser, printWidth: 120, trailingComma: "all", endOfLine: "lf" });
}
