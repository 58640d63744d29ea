/**
 * Checks a filter tree against the `filter` capability a server advertised (§6, §8) before
 * any I/O, raising exactly what the server would answer: -32005 when the server advertises no
 * `filter` or not the operator, -32602 naming `filter.<field>` for an unadvertised field or a
 * value of the wrong type.
 */
import { ErrorCode, RcpError } from "../protocol/errors.js";
import { isRecord } from "../protocol/dotted-paths.js";
import { validateFilter, type AdvertisedFilter } from "./validate.js";

/** `capabilities` is a server's whole capability object, e.g. `client.serverCapabilities`. */
export function checkFilter<T>(tree: T, capabilities: Readonly<Record<string, unknown>> | undefined): T {
  const advertised = capabilities?.["filter"];
  if (!isRecord(advertised)) {
    throw new RcpError(ErrorCode.OptionUnsupported, "Option unsupported: filter", {
      option: "filter",
      detail: "the server does not advertise the filter capability (§8)",
    });
  }
  return validateFilter(tree, advertised as AdvertisedFilter);
}
