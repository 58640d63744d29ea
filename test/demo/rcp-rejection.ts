import { RcpError } from "../../runtime/src/protocol/errors.js";

/** The RcpError a call throws or rejects with; fails the test when it succeeds or throws anything else. */
export async function rcpRejection(run: () => unknown): Promise<RcpError> {
  try {
    await run();
  } catch (error) {
    if (error instanceof RcpError) return error;
    throw error;
  }
  throw new Error("expected an RcpError");
}
