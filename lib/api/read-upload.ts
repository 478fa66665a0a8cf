import "server-only";
import { ApiError } from "@/lib/errors/api-error";
import { MULTIPART_OVERHEAD_BYTES } from "./api-routes";
import { readBodyCapped } from "./read-body";

const megabytes = (bytes: number) => `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;

/**
 * One file from a multipart/form-data upload, in `field`, at most `maxBytes`: a declared Content-Length
 * over the limit is refused before any of the body is read, a chunked body is cut off at the limit.
 * `what` names the file in messages ("The logo").
 */
export async function readUploadFile(
  req: Request,
  { field, maxBytes, what }: { field: string; maxBytes: number; what: string },
): Promise<{ bytes: Buffer; name: string; type: string }> {
  const invalid = (message: string) =>
    new ApiError("invalid_request", message, { details: [{ path: field, message }] });
  const tooLargeMessage = `${what} is larger than ${megabytes(maxBytes)}. Upload a smaller file.`;
  const tooLarge = () =>
    new ApiError("payload_too_large", tooLargeMessage, {
      details: [{ path: field, message: tooLargeMessage }],
    });
  const contentType = req.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(contentType)) {
    throw invalid(`Send the file as multipart/form-data, in the field "${field}".`);
  }
  const limit = maxBytes + MULTIPART_OVERHEAD_BYTES;
  let body: Buffer;
  try {
    body = await readBodyCapped(req, limit);
  } catch (error) {
    if (error instanceof ApiError && error.code === "payload_too_large") throw tooLarge();
    throw error;
  }
  if (body.length === 0) throw invalid(`Attach the file in the field "${field}".`);
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(body), { headers: { "content-type": contentType } }).formData();
  } catch {
    throw invalid("The upload is not valid multipart/form-data. Send the file as a form file.");
  }
  const file = form.get(field);
  if (!(file instanceof Blob)) throw invalid(`Attach the file as a file in the field "${field}".`);
  if (file.size > maxBytes) throw tooLarge();
  if (file.size === 0) throw invalid("The file is empty. Choose it again.");
  return {
    bytes: Buffer.from(await file.arrayBuffer()),
    name: file instanceof File ? file.name : "",
    type: file.type,
  };
}
