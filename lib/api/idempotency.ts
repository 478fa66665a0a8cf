import { createHash } from "node:crypto";
import { and, eq, lt } from "drizzle-orm";
import { getDb } from "@/db/client";
import { idempotencyRecords } from "@/db/schema";
import { ApiError } from "@/lib/errors/api-error";

const RECORD_TTL_MS = 24 * 60 * 60 * 1000;
/** A "running" record older than this belongs to a request that died (its process crashed): it can be taken over. */
export const RUNNING_LEASE_MS = 60 * 1000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** JSON with sorted keys, so the same body in another key order hashes the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => a.localeCompare(b));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

const REPLAYED_HEADERS = ["location", "retry-after", "content-type"];

/**
 * Runs `execute` once per `Idempotency-Key`: a retry with the same key and body gets the first answer again,
 * a different body or a retry while the first is still running gets idempotency_conflict. Records expire
 * after 24 hours; a "running" record after a lease of 60 s, so a request whose process died does not hold
 * its key. `execute` runs only for a request that is not a replay, so put the rate limit inside it: a
 * replay does not count against the limit.
 */
export async function withIdempotency({
  req,
  subject,
  operation,
  body,
  execute,
}: {
  req: Request;
  subject: string;
  operation: string;
  body: unknown;
  execute: () => Promise<Response>;
}): Promise<Response> {
  const key = req.headers.get("idempotency-key");
  if (key === null) return execute();
  if (!KEY_PATTERN.test(key)) {
    throw new ApiError("invalid_request", "Idempotency-Key must be 1 to 255 visible ASCII characters.");
  }
  const db = await getDb();
  const requestHash = createHash("sha256")
    .update(`${operation}\n${canonical(body)}`)
    .digest("hex");
  const match = and(eq(idempotencyRecords.principalId, subject), eq(idempotencyRecords.key, key));
  await db
    .delete(idempotencyRecords)
    .where(and(match, lt(idempotencyRecords.createdAt, new Date(Date.now() - RECORD_TTL_MS))));

  const claimed = await db
    .insert(idempotencyRecords)
    .values({ principalId: subject, key, operation, requestHash, state: "running" })
    .onConflictDoNothing()
    .returning({ key: idempotencyRecords.key });

  if (claimed.length === 0) {
    const [existing] = await db.select().from(idempotencyRecords).where(match);
    if (!existing) return withIdempotency({ req, subject, operation, body, execute });
    if (existing.requestHash !== requestHash) {
      throw new ApiError(
        "idempotency_conflict",
        "This Idempotency-Key was already used with a different request.",
      );
    }
    if (existing.state === "running" && existing.createdAt.getTime() < Date.now() - RUNNING_LEASE_MS) {
      // The lease ran out: whoever deletes it first may claim the key again (the insert decides the race).
      await db
        .delete(idempotencyRecords)
        .where(
          and(
            match,
            eq(idempotencyRecords.state, "running"),
            lt(idempotencyRecords.createdAt, new Date(Date.now() - RUNNING_LEASE_MS)),
          ),
        );
      return withIdempotency({ req, subject, operation, body, execute });
    }
    if (existing.state === "running") {
      throw new ApiError("idempotency_conflict", "A request with this Idempotency-Key is still running.");
    }
    const headers = new Headers(existing.responseHeaders ?? {});
    headers.set("Idempotent-Replayed", "true");
    return Response.json(existing.responseBody, { status: existing.responseStatus ?? 200, headers });
  }

  // Only successes are remembered: a failed request created nothing, so running it again is safe.
  let response: Response;
  try {
    response = await execute();
  } catch (error) {
    await db.delete(idempotencyRecords).where(match);
    throw error;
  }
  if (!response.ok) {
    await db.delete(idempotencyRecords).where(match);
    return response;
  }
  const responseHeaders = Object.fromEntries(
    [...response.headers].filter(([name]) => REPLAYED_HEADERS.includes(name.toLowerCase())),
  );
  await db
    .update(idempotencyRecords)
    .set({
      state: "done",
      responseStatus: response.status,
      responseHeaders,
      responseBody: await response.clone().json(),
    })
    .where(match);
  return response;
}
