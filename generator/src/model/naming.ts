/** TypeScript names derived from wire names: `index/add` -> IndexAdd, indexAdd; `x-acme/echo` -> XAcmeEcho. */

function words(wireName: string): string[] {
  return wireName.split(/[^A-Za-z0-9]+/).filter((word) => word !== "");
}

export function pascalName(wireName: string): string {
  return words(wireName)
    .map((word) => word[0]?.toUpperCase() + word.slice(1))
    .join("");
}

export function camelName(wireName: string): string {
  const pascal = pascalName(wireName);
  return pascal.charAt(0).toLowerCase() + pascal.slice(1);
}

export type ShapeRole = "Params" | "Result" | "Partial";

/** The TypeScript type of one method or notification shape, e.g. IndexAddParams. */
export function shapeTypeName(wireName: string, role: ShapeRole): string {
  return pascalName(wireName) + role;
}

/** The validators.ts export of that shape, e.g. indexAddParams. */
export function shapeValidatorName(wireName: string, role: ShapeRole): string {
  return camelName(wireName) + role;
}
