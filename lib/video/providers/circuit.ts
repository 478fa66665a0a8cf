import { eq, gt, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { providerCircuits } from "@/db/schema";
import { getEnv } from "@/lib/config";
import { log } from "@/lib/log";

/**
 * A circuit breaker per hosted provider, kept in the database so every web and worker process sees the
 * same state. Closed: requests go. After PROVIDER_BREAKER_THRESHOLD 5xx answers or timeouts in a row it
 * opens for PROVIDER_BREAKER_COOLDOWN_SECONDS: new jobs answer 503 provider_unavailable. Once the
 * cool-down passes it is half-open: requests go again (a worker's poll, a new job), and the first success
 * closes it while the next failure opens it again at once (the count stays above the threshold).
 */

export type CircuitState =
  | { state: "closed" }
  | { state: "half_open"; failures: number }
  | { state: "open"; retryAfterSeconds: number; lastError: string | null };

export async function recordProviderFailure(provider: string, reason: string) {
  const env = getEnv();
  try {
    const db = await getDb();
    const now = new Date();
    const [row] = await db
      .insert(providerCircuits)
      .values({ provider, failures: 1, lastError: reason, updatedAt: now })
      .onConflictDoUpdate({
        target: providerCircuits.provider,
        set: {
          failures: sql`${providerCircuits.failures} + 1`,
          lastError: reason,
          updatedAt: now,
        },
      })
      .returning();
    if (row && row.failures >= env.PROVIDER_BREAKER_THRESHOLD) {
      const openedUntil = new Date(now.getTime() + env.PROVIDER_BREAKER_COOLDOWN_SECONDS * 1000);
      await db.update(providerCircuits).set({ openedUntil }).where(eq(providerCircuits.provider, provider));
      log.warn("provider_circuit_opened", { provider, failures: row.failures, reason });
    }
  } catch (error) {
    log.warn("provider_circuit_write_failed", { provider, error });
  }
}

export async function recordProviderSuccess(provider: string) {
  try {
    const db = await getDb();
    // Touches the row only when there is something to reset, so the common case writes nothing.
    const rows = await db
      .update(providerCircuits)
      .set({ failures: 0, openedUntil: null, updatedAt: new Date() })
      .where(sql`${providerCircuits.provider} = ${provider} and ${providerCircuits.failures} > 0`)
      .returning({ provider: providerCircuits.provider });
    if (rows.length > 0) log.info("provider_circuit_closed", { provider });
  } catch (error) {
    log.warn("provider_circuit_write_failed", { provider, error });
  }
}

export async function getCircuitState(provider: string): Promise<CircuitState> {
  const db = await getDb();
  const [row] = await db.select().from(providerCircuits).where(eq(providerCircuits.provider, provider));
  if (!row || row.failures < getEnv().PROVIDER_BREAKER_THRESHOLD) return { state: "closed" };
  const now = Date.now();
  if (row.openedUntil && row.openedUntil.getTime() > now) {
    return {
      state: "open",
      retryAfterSeconds: Math.max(1, Math.ceil((row.openedUntil.getTime() - now) / 1000)),
      lastError: row.lastError,
    };
  }
  return { state: "half_open", failures: row.failures };
}

/** Providers whose breaker is open now (for /api/health). */
export async function openCircuits(): Promise<string[]> {
  const db = await getDb();
  const rows = await db
    .select({ provider: providerCircuits.provider })
    .from(providerCircuits)
    .where(gt(providerCircuits.openedUntil, new Date()));
  return rows.map((row) => row.provider);
}
