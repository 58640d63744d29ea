/**
 * `@rcp-gen/runtime/federation`: beyond one engine (§16). A Selector over an `rcp.json`
 * registry, and a Federation that fans a retrieve out, fuses the answers and reports partial
 * failure. Universal like the main entry: stdio engines connect through `stdioConnector` from
 * `@rcp-gen/runtime/node`.
 *
 * @module @rcp-gen/runtime/federation
 */
export {
  Selector,
  type ClientClass,
  type EngineFailure,
  type SelectedEngine,
  type SelectorOptions,
  type StdioConnector,
} from "./federation/selector.js";
export { Federation, type FederationOptions } from "./federation/federation.js";
export type { EngineOutcome, FederatedCallOptions } from "./federation/federated-call.js";
export type { FederationPartial, FederationProgressEvent } from "./federation/progress.js";
export type { FederationFusion } from "./federation/merge.js";
export { EngineHandle, type EngineClient } from "./federation/engine-handle.js";
export type { EngineCriteria } from "./federation/criteria.js";
export { parseRegistry, RegistryError, type EngineEntry } from "./federation/registry.js";
export { federatedCapabilities, type CapabilityRule } from "./federation/capabilities.js";
export type { CatalogEntry } from "./federation/catalog.js";
export { DEFAULT_HOP_BUDGET, nextHop, type HopMeta } from "./federation/budget.js";
export type { CapabilitiesOf, CatalogOf, MethodsOf, RetrieveOf } from "./federation/types.js";
