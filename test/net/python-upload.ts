/**
 * Uploads through Python's urllib (test/fixtures/http/upload.py), a client that sends
 * `Connection: close` and reads the answer only once it has sent the whole body.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const UPLOAD_CLIENT = fileURLToPath(new URL("../fixtures/http/upload.py", import.meta.url));

/** One entry per upload: [status, JSON-RPC error code] as the client read them, or ["error", what failed]. */
export type UploadResult = [number | "error", number | string | null];

/** Posts `bytes` spaces to `url`, `count` times, one at a time or all at once. */
export async function pythonUpload(
  url: string,
  bytes: number,
  count: number,
  mode: "sequential" | "parallel",
): Promise<UploadResult[]> {
  const { stdout } = await promisify(execFile)("python3", [UPLOAD_CLIENT, url, String(bytes), String(count), mode], {
    timeout: 60_000,
  });
  return JSON.parse(stdout) as UploadResult[];
}
