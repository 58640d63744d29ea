/**
 * Writes plain data as a TypeScript object literal, objects expanded one member per line (prettier
 * keeps an object expanded when its first member starts a line, and generated data reads best
 * so); a `Reference` is written as an identifier (a validator, an imported constant). Undefined
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
    const members = Object.entries(value)
      .filter((entry): entry is [string, LiteralValue] => entry[1] !== undefined)
      .map(([key, item]) => `${propertyName(key)}: ${literal(item)},`);
    return members.length === 0 ? "{}" : `{\n${members.join("\n")}\n}`;
  }
  return JSON.stringify(value);
}

/** A property name: bare when it is an identifier; a quoted `"__proto__":` would set the prototype, so it is computed. */
export function propertyName(key: string): string {
  if (key === "__proto__") return `[${JSON.stringify(key)}]`;
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? key : JSON.stringify(key);
}
