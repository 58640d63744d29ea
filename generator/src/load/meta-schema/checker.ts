/** A precompiled meta-schema validator (checkers.ts): a guard whose failures are in `errors`. */
import type { ErrorObject } from "ajv/dist/2020.js";

export type MetaChecker<T> = ((data: unknown) => data is T) & { errors?: ErrorObject[] | null };
