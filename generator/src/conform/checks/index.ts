/**
 * The conformance table: every check, in the order a run performs them. Each entry cites the
 * section it enforces; families (per method, per option, per filter rule) are generated from
 * the schema's x-rcp annotations and the server's advertised metadata when the run gets there.
 */
import type { CheckEntry } from "../check.js";
import { batchChecks } from "./batches.js";
import { envelopeChecks } from "./envelope.js";
import { filterChecks } from "./filters.js";
import { handshakeChecks } from "./handshake.js";
import { httpChecks } from "./http.js";
import { levelChecks } from "./levels.js";
import { methodChecks } from "./methods.js";
import { notificationChecks, unrequestedNotificationChecks } from "./notifications.js";
import { optionChecks } from "./options.js";
import { semanticChecks } from "./semantics.js";
import { stdioChecks } from "./stdio.js";
import { streamChecks } from "./streams.js";
import { resumableChecks } from "./resumable.js";
import { wholeRunChecks } from "./whole-run.js";

export const checkTable: readonly CheckEntry[] = [
  ...handshakeChecks,
  ...notificationChecks,
  ...envelopeChecks,
  ...batchChecks,
  ...methodChecks,
  ...optionChecks,
  ...filterChecks,
  ...streamChecks,
  ...resumableChecks,
  ...semanticChecks,
  ...httpChecks,
  ...unrequestedNotificationChecks,
  ...levelChecks,
  ...wholeRunChecks,
  ...stdioChecks,
];
