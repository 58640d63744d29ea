/**
 * How a schema location is written: a folder path, or `npm:<spec>`, a published schema package
 * (load/npm-schema.ts resolves it). Apart from the resolver, so that reading the settings or
 * `--help` loads nothing of it.
 */
export const NPM_SCHEMA_PREFIX = "npm:";

export const isNpmSchema = (location: string): boolean => location.startsWith(NPM_SCHEMA_PREFIX);
