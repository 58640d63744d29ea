/**
 * Writes plain data as a TypeScript object literal, objects expanded one member per line; a
 * `Reference` is written as an identifier (a validator, an imported constant). Undefined
 * members are left out.
 */
export class Reference {
  constructor(readonly name: string) {}
}

export type LiteralValue =
  | string
  | number
  | boolean
  | null
  | Reference
  | readonly LiteralValue[]
  | { readonly [key: string]: LiteralValue | undefined };

export function literal(value: LiteralValue): string {
  if (value instanceof Reference) return value.name;
  if (Array.isArray(value)) return `[${(value as readonly LiteralValue[]).map(literal).join(", ")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value).filter((entry): entry is [string, LiteralValue] => entry[1] !== undefined);
    // One member per line: prettier keeps an object expanded when its first member starts a line.
    if (entries.length === 0) return "{}";
    return `{\n${entries.map(([key, item]) => `${propertyName(key)}: ${literal(item)},`).join("\n")}\n}`;
  }
  return JSON.stringify(value);
}

/** A quoted `"__proto__":` in a literal sets the prototype instead of a property; a computed key defines it. */
function propertyName(key: string): string {
  return key === "__proto__" ? `[${JSON.stringify(key)}]` : JSON.stringify(key);
}
