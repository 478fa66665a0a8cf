import { eq, inArray, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { authThrottle } from "@/db/schema";
import { getEnv } from "@/lib/config";
import { ApiError } from "@/lib/errors/api-error";
import { metrics } from "@/lib/telemetry/metrics";
import { normalizeEmail } from "./users";

/** Failures older than this are forgotten (unless a lockout is still running). */
const FAILURE_WINDOW_SECONDS = 15 * 60;
/** The longest lockout, however many failures. */
const MAX_LOCK_SECONDS = 60 * 60;

const accountKey = (email: string) => `account:${normalizeEmail(email).slice(0, 320)}`;
const ipKey = (ip: string) => `ip:${ip.slice(0, 100)}`;

export function throttleSettings() {
  const env = getEnv();
  return {
    accountThreshold: env.AUTH_LOCKOUT_THRESHOLD,
    ipThreshold: env.AUTH_IP_LOCKOUT_THRESHOLD,
    baseSeconds: env.AUTH_LOCKOUT_BASE_SECONDS,
    maxSeconds: MAX_LOCK_SECONDS,
    windowSeconds: FAILURE_WINDOW_SECONDS,
  };
}

/** Lockout after the n-th failure: none below the threshold, then base × 2^(n − threshold), at most an hour. */
export function lockSeconds(failures: number, threshold: number, baseSeconds: number) {
  if (failures < threshold) return 0;
  return Math.min(MAX_LOCK_SECONDS, baseSeconds * 2 ** Math.min(failures - threshold, 20));
}

export const signInLockedMessage = (seconds: number) =>
  `Too many failed sign-ins. Try again in ${seconds} s.`;

/**
 * Throws 429 rate_limited (with Retry-After) while the account or the client IP is locked out. Called before
 * the password is checked, so a correct password does not get through a lockout, and a locked-out attacker
 * costs no scrypt hash.
 */
export async function assertSignInAllowed({ email, ip }: { email: string; ip: string }) {
  const db = await getDb();
  const rows = await db
    .select({ lockedUntil: authThrottle.lockedUntil })
    .from(authThrottle)
    .where(inArray(authThrottle.key, [accountKey(email), ipKey(ip)]));
  const until = Math.max(0, ...rows.map((row) => row.lockedUntil?.getTime() ?? 0));
  const seconds = Math.ceil((until - Date.now()) / 1000);
  if (seconds > 0) {
    throw new ApiError("rate_limited", signInLockedMessage(seconds), {
      headers: { "Retry-After": String(seconds) },
      details: { retryAfterSeconds: seconds },
    });
  }
}

async function countFailure(key: string, scope: "account" | "ip", threshold: number, baseSeconds: number) {
  const db = await getDb();
  const stale = sql`${authThrottle.lastFailureAt} < now() - make_interval(secs => ${FAILURE_WINDOW_SECONDS}::int)`;
  const [{ failures }] = await db
    .insert(authThrottle)
    .values({ key, failures: 1 })
    .onConflictDoUpdate({
      target: authThrottle.key,
      set: {
        failures: sql`case when ${stale} then 1 else ${authThrottle.failures} + 1 end`,
        lastFailureAt: sql`now()`,
      },
    })
    .returning({ failures: authThrottle.failures });
  const seconds = lockSeconds(failures, threshold, baseSeconds);
  if (seconds > 0) {
    await db
      .update(authThrottle)
      .set({ lockedUntil: sql`now() + make_interval(secs => ${seconds}::int)` })
      .where(eq(authThrottle.key, key));
    metrics().lockouts.inc({ scope });
  }
}

/** Counts a wrong password against the account and the client IP. */
export async function recordSignInFailure({ email, ip }: { email: string; ip: string }) {
  const { accountThreshold, ipThreshold, baseSeconds } = throttleSettings();
  await countFailure(accountKey(email), "account", accountThreshold, baseSeconds);
  await countFailure(ipKey(ip), "ip", ipThreshold, baseSeconds);
}

/** A successful sign-in clears the account's failures (the IP's decay on their own). */
export async function recordSignInSuccess({ email }: { email: string }) {
  const db = await getDb();
  await db.delete(authThrottle).where(eq(authThrottle.key, accountKey(email)));
}
