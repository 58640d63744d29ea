/** Advertised in the §6 sense: present and not `false`. */
export function truthy(value: unknown): boolean {
  return value !== undefined && value !== null && value !== false;
}
