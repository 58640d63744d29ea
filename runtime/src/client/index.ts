/** The client side of the runtime: BaseClient (extended by generated clients) and its Web-standard transports; stdio is in ../node/index.ts. */
export { BaseClient, type BaseClientOptions } from "./base-client.js";
export { CallError, type Retryability } from "./call-error.js";
export type { RetryPolicy } from "./retry.js";
export type { ClientDiagnostic, ToleratedDeviation } from "./tolerance.js";
export {
  httpClientTransport,
  HttpClientTransport,
  SESSION_HEADER,
  type HttpClientTransportOptions,
  type ResumeOptions,
} from "./http-transport.js";
export { fetchExchange, type HttpExchange, type HttpPost, type HttpReply } from "./http-exchange.js";
export {
  DEFAULT_CLIENT_MAX_MESSAGE_BYTES,
  TransportError,
  type ClientTransport,
  type ClientTransportSink,
  type OutgoingFrame,
  type OutgoingNotification,
  type OutgoingRequest,
  type SendOptions,
} from "./transport.js";
export {
  createMemoryTransportPair,
  type MemoryServerEnd,
  type MemoryTransportPair,
} from "../message-stream/memory-pair.js";
export { emptyStreamedData, foldStreamEvent, type StreamedData } from "./streamed-data.js";
