import { ApiError } from "@/lib/api/api-error";
import { AVATAR_UPLOAD } from "@/lib/contracts/brands";

// Room for the multipart boundaries and part headers around a file of the maximum size.
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;
const MAX_BODY_BYTES = AVATAR_UPLOAD.maxBytes + MULTIPART_OVERHEAD_BYTES;
const MAX_MEGABYTES = AVATAR_UPLOAD.maxBytes / (1024 * 1024);

const invalid = (message: string) =>
  new ApiError("invalid_request", message, { details: [{ path: AVATAR_UPLOAD.field, message }] });
const tooLarge = () =>
  invalid(
    `The image is larger than ${MAX_MEGABYTES} MB. Upload a smaller file (a 1024×1024 image is plenty).`,
  );

/** Reads the body but never more than `limit` bytes: a chunked upload without Content-Length is cut off too. */
async function readCapped(body: ReadableStream<Uint8Array>, limit: number) {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/**
 * The upload-avatar request body: multipart/form-data with one file in the field `file`, at most 5 MB.
 * A Content-Length over the limit is refused before any of the body is read.
 */
export async function readAvatarFile(req: Request): Promise<Buffer> {
  const contentType = req.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(contentType)) {
    throw invalid(`Send the image as multipart/form-data, in the field "${AVATAR_UPLOAD.field}".`);
  }
  const declaredLength = Number(req.headers.get("content-length"));
  if (Number.isFinite(declaredLength) && declaredLength > MAX_BODY_BYTES) throw tooLarge();
  if (!req.body) throw invalid(`Attach the image in the field "${AVATAR_UPLOAD.field}".`);

  const body = await readCapped(req.body, MAX_BODY_BYTES);
  let form: FormData;
  try {
    form = await new Response(body, { headers: { "content-type": contentType } }).formData();
  } catch {
    throw invalid("The upload is not valid multipart/form-data. Send the image as a form file.");
  }
  const file = form.get(AVATAR_UPLOAD.field);
  if (!(file instanceof Blob))
    throw invalid(`Attach the image as a file in the field "${AVATAR_UPLOAD.field}".`);
  if (file.size > AVATAR_UPLOAD.maxBytes) throw tooLarge();
  if (file.size === 0) throw invalid("The file is empty. Choose the image again.");
  return Buffer.from(await file.arrayBuffer());
}
