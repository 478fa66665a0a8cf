import { ApiError } from "@/lib/errors/api-error";

/** DESIGN §4: a JSON body is at most 256 KB unless its card says otherwise. */
export const JSON_BODY_LIMIT_BYTES = 256 * 1024;

const formatBytes = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MB` : `${Math.round(bytes / 1024)} KB`;

export function payloadTooLarge(limit: number, what = "The body") {
  return new ApiError("payload_too_large", `${what} is larger than ${formatBytes(limit)}. Send less.`, {
    details: { limitBytes: limit },
  });
}

/** A declared Content-Length over the limit is refused before a byte of the body is read. */
export function assertDeclaredLength(req: Request, limit: number, what?: string) {
  const header = req.headers.get("content-length");
  if (header === null) return;
  const declared = Number(header);
  if (Number.isFinite(declared) && declared > limit) throw payloadTooLarge(limit, what);
}

/**
 * Reads a request body but never more than `limit` bytes: past it the stream is cancelled and the answer is
 * 413, so a chunked body without Content-Length is cut off too and never held whole in memory.
 */
export async function readBodyCapped(req: Request, limit: number, what?: string): Promise<Buffer> {
  assertDeclaredLength(req, limit, what);
  if (!req.body) return Buffer.alloc(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw payloadTooLarge(limit, what);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size);
}
