import { Readable } from "node:stream";
import type { NextRequest } from "next/server";
import { ApiError } from "@/lib/errors/api-error";
import { verifyLocalMediaSignature } from "./local-signature";
import { isSafeKey } from "./media-key";
import { getMediaStorage } from "./storage";

/**
 * Reads a `Range` header for a file of `size` bytes: one `bytes=start-end` range (also `start-` and
 * `-suffix`), "unsatisfiable" when it lies past the end, or null when the header is not one byte range
 * this server reads (several ranges, another unit, end before start) and is therefore ignored, as
 * RFC 9110 §14.2 allows: the whole file is sent.
 */
export function parseRange(
  header: string,
  size: number,
): { start: number; end: number } | "unsatisfiable" | null {
  const match = header.trim().match(/^bytes=(\d*)-(\d*)$/);
  if (!match || (match[1] === "" && match[2] === "")) return null;
  if (match[1] === "") {
    const suffix = Number(match[2]);
    return suffix === 0 || size === 0
      ? "unsatisfiable"
      : { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (match[2] !== "" && Number(match[2]) < start) return null;
  return start < size ? { start, end } : "unsatisfiable";
}

const NOT_FOUND_MESSAGE =
  "This media link is not valid: it is unsigned, altered or expired. Ask the API for the item again to get a fresh link.";

/**
 * Serves a stored file at a signed `/media/<key>?exp=…&sig=…` URL (see local-signature.ts), with HTTP
 * Range support (206) so a <video> element can seek. An unsigned, tampered or expired link answers 404
 * in the error envelope, the same as a missing file, so a link reveals nothing once it is dead.
 */
export async function serveMedia(req: NextRequest, key: string): Promise<Response> {
  if (!isSafeKey(key)) throw new ApiError("not_found", NOT_FOUND_MESSAGE);
  const url = req.nextUrl;
  const check = verifyLocalMediaSignature(key, url.searchParams.get("exp"), url.searchParams.get("sig"));
  if (!check.ok) throw new ApiError("not_found", NOT_FOUND_MESSAGE);

  const storage = getMediaStorage();
  const stat = await storage.stat(key);
  if (!stat) throw new ApiError("not_found", NOT_FOUND_MESSAGE);
  // Cached no longer than the link lives, and only by the browser that holds it.
  const maxAge = Math.max(0, check.expiresAt - Math.floor(Date.now() / 1000));
  const headers = new Headers({
    "Content-Type": stat.contentType,
    "Accept-Ranges": "bytes",
    "Last-Modified": stat.modifiedAt.toUTCString(),
    "Cache-Control": `private, max-age=${maxAge}`,
  });
  const rangeHeader = req.headers.get("range");
  const range = rangeHeader ? parseRange(rangeHeader, stat.size) : null;
  if (range === "unsatisfiable") {
    headers.set("Content-Range", `bytes */${stat.size}`);
    return new Response(null, { status: 416, headers });
  }
  if (range) {
    headers.set("Content-Range", `bytes ${range.start}-${range.end}/${stat.size}`);
    headers.set("Content-Length", String(range.end - range.start + 1));
  } else {
    headers.set("Content-Length", String(stat.size));
  }
  const body =
    req.method === "HEAD"
      ? null
      : (Readable.toWeb(await storage.read(key, range ?? undefined)) as ReadableStream);
  return new Response(body, { status: range ? 206 : 200, headers });
}
