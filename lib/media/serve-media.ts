import { Readable } from "node:stream";
import { getMediaStorage } from "./storage";

const CONTENT_TYPES: Record<string, string> = {
  mp4: "video/mp4",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
};

function notFound() {
  return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain" } });
}

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

/** Serves a stored file with HTTP Range support (206), so a <video> element can seek. */
export async function serveMedia(req: Request, key: string): Promise<Response> {
  const storage = getMediaStorage();
  let stat: Awaited<ReturnType<typeof storage.stat>>;
  try {
    stat = await storage.stat(key);
  } catch {
    return notFound();
  }
  if (!stat) return notFound();
  const headers = new Headers({
    "Content-Type": CONTENT_TYPES[key.split(".").pop()?.toLowerCase() ?? ""] ?? "application/octet-stream",
    "Accept-Ranges": "bytes",
    "Last-Modified": stat.modifiedAt.toUTCString(),
    // Keys hold random ids and files are never rewritten in place.
    "Cache-Control": "private, max-age=31536000, immutable",
  });
  const rangeHeader = req.headers.get("range");
  const range = rangeHeader ? parseRange(rangeHeader, stat.size) : null;
  if (!range) {
    headers.set("Content-Length", String(stat.size));
    const body = req.method === "HEAD" ? null : (Readable.toWeb(storage.read(key)) as ReadableStream);
    return new Response(body, { status: 200, headers });
  }
  if (range === "unsatisfiable") {
    headers.set("Content-Range", `bytes */${stat.size}`);
    return new Response(null, { status: 416, headers });
  }
  headers.set("Content-Range", `bytes ${range.start}-${range.end}/${stat.size}`);
  headers.set("Content-Length", String(range.end - range.start + 1));
  const body = req.method === "HEAD" ? null : (Readable.toWeb(storage.read(key, range)) as ReadableStream);
  return new Response(body, { status: 206, headers });
}
