/**
 * Writes plain data as a TypeScript object literal through ts-morph's writers; a
 * `Reference` is written as an identifier (a validator, an imported constant).
 */
import { Writers, type WriterFunction } from "ts-morph";

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

export function literal(value: LiteralValue): string | WriterFunction {
  if (value instanceof Reference) return value.name;
  if (Array.isArray(value)) {
    const items = value as readonly LiteralValue[];
    return (writer) => {
      writer.write("[");
      items.forEach((item, index) => {
        if (index > 0) writer.write(", ");
        writeValue(writer, literal(item));
      });
      writer.write("]");
    };
  }
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value).filter((entry): entry is [string, LiteralValue] => entry[1] !== undefined);
    return Writers.object(Object.fromEntries(entries.map(([key, item]) => [propertyName(key), literal(item)])));
  }
  return JSON.stringify(value);
}

/** A quoted `"__proto__":` in a literal sets the prototype instead of a property; a computed key defines it. */
function propertyName(key: string): string {
  return key === "__proto__" ? `[${JSON.stringify(key)}]` : JSON.stringify(key);
}

export function writeValue(writer: Parameters<WriterFunction>[0], value: string | WriterFunction): void {
  if (typeof value === "string") writer.write(value);
  else value(writer);
}
