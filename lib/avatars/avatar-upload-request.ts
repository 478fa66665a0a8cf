import { readBodyCapped } from "@/lib/api/read-body";
import { AVATAR_UPLOAD } from "@/lib/contracts/brands";
import { ApiError } from "@/lib/errors/api-error";

// Room for the multipart boundaries and part headers around a file of the maximum size.
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;
const MAX_BODY_BYTES = AVATAR_UPLOAD.maxBytes + MULTIPART_OVERHEAD_BYTES;
const MAX_MEGABYTES = AVATAR_UPLOAD.maxBytes / (1024 * 1024);

const invalid = (message: string) =>
  new ApiError("invalid_request", message, { details: [{ path: AVATAR_UPLOAD.field, message }] });
const TOO_LARGE = `The image is larger than ${MAX_MEGABYTES} MB. Upload a smaller file (a 1024×1024 image is plenty).`;
const tooLarge = () =>
  new ApiError("payload_too_large", TOO_LARGE, {
    details: [{ path: AVATAR_UPLOAD.field, message: TOO_LARGE }],
  });

/** Reads the body but never more than the limit: a chunked upload without Content-Length is cut off too. */
async function readCapped(req: Request) {
  try {
    return await readBodyCapped(req, MAX_BODY_BYTES);
  } catch (error) {
    if (error instanceof ApiError && error.code === "payload_too_large") throw tooLarge();
    throw error;
  }
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

  const body = await readCapped(req);
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(body), { headers: { "content-type": contentType } }).formData();
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
