/** The page's one DOM helper: an element with attributes and children, nothing else. */
type Child = Node | string | number | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | boolean | undefined> | null = null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes ?? {})) {
    if (value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(typeof child === "number" ? String(child) : child);
  }
  return element;
}

/** `value` on one line: a string as it is, anything else as JSON. */
export const plain = (value: unknown): string => (typeof value === "string" ? value : JSON.stringify(value));

/** `value` as indented JSON, for people. */
export const pretty = (value: unknown): string => JSON.stringify(value, null, 2);
