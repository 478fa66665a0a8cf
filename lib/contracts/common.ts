import { z } from "zod";
import { ERROR_CODE_LIST } from "@/lib/api/error-codes";

/** Prefixed opaque ids. Anything else in a path is a 404. */
export const idOf = (prefix: "usr" | "brd" | "pst" | "vjb" | "key" | "whk" | "msg") =>
  z
    .string()
    .regex(new RegExp(`^${prefix}_[A-Za-z0-9_-]{6,64}$`), `Must be an id that starts with ${prefix}_.`)
    .meta({ example: `${prefix}_7Hq2mXbV9kLr3NpQ` });

export const isoDateTime = z.iso.datetime({ offset: true });

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

export const cursorPage = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), nextCursor: z.string().nullable() });
