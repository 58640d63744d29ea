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
} from "./selector.js";
export { Federation, type FederationOptions } from "./facade.js";
export type { EngineOutcome, FederatedCallOptions } from "./federated-call.js";
export type { FederationPartial, FederationProgressEvent } from "./progress.js";
export type { FederationFusion } from "./merge.js";
export { EngineHandle, type EngineClient } from "./engine-handle.js";
export type { EngineCriteria } from "./criteria.js";
export { parseRegistry, RegistryError, type EngineEntry } from "./registry.js";
export { federatedCapabilities, type CapabilityRule } from "./capabilities.js";
export type { CatalogEntry } from "./catalog.js";
export { DEFAULT_HOP_BUDGET, nextHop, type HopMeta } from "./budget.js";
export type { CapabilitiesOf, CatalogOf, MethodsOf, RetrieveOf } from "./types.js";
