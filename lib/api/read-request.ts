import type { NextRequest } from "next/server";
import type { z } from "zod";
import { ApiError } from "@/lib/errors/api-error";
import { JSON_BODY_LIMIT_BYTES, readBodyCapped } from "./read-body";

const MAX_ISSUES = 20;
const MAX_SEGMENT = 40;
const MAX_MESSAGE = 240;

/** Cuts text a client chose (a field name, an unknown key) so an error never echoes much of the request. */
export const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

export function fieldIssues(error: z.ZodError) {
  return error.issues.slice(0, MAX_ISSUES).map((issue) => ({
    path: issue.path.map((segment) => cut(String(segment), MAX_SEGMENT)).join(".") || "(body)",
    message: cut(issue.message, MAX_MESSAGE),
  }));
}

function invalid(error: z.ZodError, where: string) {
  const issues = fieldIssues(error);
  const first = issues[0];
  const message = first ? `${first.path}: ${first.message}` : `The ${where} is invalid.`;
  return new ApiError("invalid_request", message, { details: issues });
}

/**
 * Reads a JSON body (streamed, at most `limitBytes`: 256 KB unless the card says otherwise) and validates it
 * against the operation's request schema.
 */
export async function readJson<S extends z.ZodType>(
  req: Request,
  schema: S,
  { limitBytes = JSON_BODY_LIMIT_BYTES }: { limitBytes?: number } = {},
): Promise<z.output<S>> {
  const type = req.headers.get("content-type") ?? "";
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(type)) {
    throw new ApiError(
      "invalid_request",
      "Send the body as JSON with the header Content-Type: application/json.",
    );
  }
  const raw = await readBodyCapped(req, limitBytes);
  let body: unknown;
  try {
    body = JSON.parse(raw.toString("utf8"));
  } catch {
    throw new ApiError("invalid_request", "The body is not valid JSON.");
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw invalid(parsed.error, "body");
  return parsed.data;
}

/** Validates query parameters; repeated keys become arrays. */
export function readQuery<S extends z.ZodType>(req: NextRequest, schema: S): z.output<S> {
  const query: Record<string, string | string[]> = {};
  for (const key of new Set(req.nextUrl.searchParams.keys())) {
    const values = req.nextUrl.searchParams.getAll(key);
    query[key] = values.length === 1 ? values[0] : values;
  }
  const parsed = schema.safeParse(query);
  if (!parsed.success) throw invalid(parsed.error, "query");
  return parsed.data;
}

/** Validates path parameters (ids) so a malformed id is a clean 404, not a database error. */
export function readParams<S extends z.ZodType>(params: unknown, schema: S): z.output<S> {
  const parsed = schema.safeParse(params);
  if (!parsed.success) throw new ApiError("not_found", "Resource not found.");
  return parsed.data;
}
