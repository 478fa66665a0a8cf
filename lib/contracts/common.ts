import { z } from "zod";
import { ERROR_CODE_LIST } from "@/lib/errors/error-codes";
import { isStorableText, STORABLE_TEXT_MESSAGE } from "./text";

// The app's CSP has no 'unsafe-eval'. zod's JIT probes `new Function` on the first object parse, and the
// browser reports that probe as a CSP violation even though zod catches it. In the browser, zod parses
// without the JIT (the server keeps it). Here because every contract imports this module, so the setting
// comes with whichever contract a page loads (lazily: zod is in no page's first load).
if (typeof window !== "undefined") z.config({ jitless: true });

/** Prefixed opaque ids. Anything else in a path is a 404. */
export const idOf = (
  prefix: "usr" | "brd" | "pst" | "vjb" | "key" | "whk" | "msg" | "chn" | "pub" | "inv" | "act",
) =>
  z
    .string()
    .regex(new RegExp(`^${prefix}_[A-Za-z0-9_-]{6,64}$`), `Must be an id that starts with ${prefix}_.`)
    .meta({ example: `${prefix}_7Hq2mXbV9kLr3NpQ` });

export const isoDateTime = z.iso.datetime({ offset: true });

export { isStorableText, STORABLE_TEXT_MESSAGE };

/**
 * Every text field a user sends starts here: a string that refuses NUL bytes and lone UTF-16 surrogates
 * (400 invalid_request naming the field) before any other check runs.
 */
export const userText = (params?: Parameters<typeof z.string>[0]) =>
  z.string(params).refine(isStorableText, { message: STORABLE_TEXT_MESSAGE, abort: true });

export const errorEnvelope = z
  .object({
    error: z.object({
      code: z.enum(ERROR_CODE_LIST),
      message: z.string(),
      retryable: z.boolean(),
      requestId: z.string(),
      docUrl: z.string(),
      details: z.unknown().optional(),
    }),
  })
  .meta({ id: "ErrorEnvelope" });

export type ErrorEnvelope = z.infer<typeof errorEnvelope>;

export type PageCursor = { createdAt: Date; id: string };

// A cursor's time is a row's createdAt: after 2000 and before 10000, or it is not one this API issued.
const CURSOR_EARLIEST = Date.UTC(2000, 0, 1);
const CURSOR_LATEST = Date.UTC(9999, 11, 31);

/** The cursor of a page that ends with this row: its (createdAt, id), as base64url JSON. */
export const encodePageCursor = ({ createdAt, id }: PageCursor) =>
  Buffer.from(JSON.stringify([createdAt.toISOString(), id])).toString("base64url");

function decodePageCursor(value: string, prefix: Parameters<typeof idOf>[0]): PageCursor | undefined {
  try {
    const decoded: unknown = JSON.parse(Buffer.from(value, "base64url").toString("utf8"));
    if (!Array.isArray(decoded) || decoded.length !== 2) return undefined;
    const [at, id] = decoded;
    if (typeof at !== "string" || !isoDateTime.safeParse(at).success) return undefined;
    if (!idOf(prefix).safeParse(id).success) return undefined;
    const createdAt = new Date(at);
    const time = createdAt.getTime();
    if (Number.isNaN(time) || time < CURSOR_EARLIEST || time > CURSOR_LATEST) return undefined;
    return { createdAt, id };
  } catch {
    return undefined;
  }
}

/**
 * A `cursor` query parameter, validated as what it is (a time in range and an id of the listed kind), so a
 * crafted cursor is a 400, never a database error.
 */
export const pageCursor = (prefix: Parameters<typeof idOf>[0]) =>
  z
    .string()
    .max(200)
    .regex(/^[A-Za-z0-9_-]+$/, "Use the nextCursor value from the previous page.")
    .transform((value, ctx) => {
      const cursor = decodePageCursor(value, prefix);
      if (!cursor) {
        ctx.addIssue({ code: "custom", message: "Use the nextCursor value from the previous page." });
        return z.NEVER;
      }
      return cursor;
    })
    .describe("nextCursor from the previous page.");

export const cursorPage = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), nextCursor: z.string().nullable() });
