/** Types federation derives from a generated client: its method map and the shapes of `retrieve` it fans out. */
import type { MethodMap, MethodTypes } from "../protocol/types.js";
import type { FusibleHit } from "../fusion/types.js";

/** The method map of a generated client type (`RcpMethods` for `RcpClient`). */
export type MethodsOf<C> = C extends { readonly "~methods"?: infer M } ? (M extends MethodMap ? M : never) : never;

/** How `retrieve` is typed for client `C`; never when the protocol has no `retrieve`. */
export type RetrieveOf<C> = MethodsOf<C> extends { retrieve: infer R extends MethodTypes } ? R : never;

/** How `catalog/list` is typed for client `C` (§7.13). */
export type CatalogOf<C> = MethodsOf<C> extends { "catalog/list": infer R extends MethodTypes } ? R : never;

/** The capabilities type of client `C`'s protocol, read from its `initialize` result (§6). */
export type CapabilitiesOf<C> =
  MethodsOf<C> extends { initialize: { result: { capabilities?: infer K } } } ? K : Record<string, unknown>;

/** What federation reads of a retrieve result (§7.7); the rest of it is carried through. */
export interface FederableResult {
  hits: FusibleHit[];
  usage?: { notes?: string[] };
  encoding?: string;
  dimension?: number;
}
