/** One chain of interceptors, either side: the first in the array is outermost (connect-es's order). */
import type { CallNext, Interceptor, RcpCall } from "./types.js";

export function composeInterceptors<Call extends RcpCall>(
  interceptors: readonly Interceptor<Call>[],
  innermost: CallNext<Call>,
): CallNext<Call> {
  return interceptors.reduceRight<CallNext<Call>>((next, interceptor) => interceptor(next), innermost);
}
