import "server-only";
import type { Database } from "./client";
import { migrationsFolder } from "./migration-state";

// Any fixed number: several processes starting at once on one PostgreSQL take turns migrating.
const MIGRATION_LOCK = 727_001;

/** Applies the committed migrations (`npm run db:migrate`; on start only with PGlite or in development). */
export async function runMigrations(database: Database) {
  if (database.kind === "pglite") {
    const { migrate } = await import("drizzle-orm/pglite/migrator");
    // biome-ignore lint/suspicious/noExplicitAny: the migrator wants the driver-specific type.
    await migrate(database.db as any, { migrationsFolder });
    return;
  }
  const { migrate } = await import("drizzle-orm/postgres-js/migrator");
  // The lock is held by one reserved connection while the pool migrates; other processes wait on it.
  const connection = await database.sql.reserve();
  try {
    await connection`select pg_advisory_lock(${MIGRATION_LOCK})`;
    // biome-ignore lint/suspicious/noExplicitAny: the migrator wants the driver-specific type.
    await migrate(database.db as any, { migrationsFolder });
  } finally {
    await connection`select pg_advisory_unlock(${MIGRATION_LOCK})`.catch(() => {});
    connection.release();
  }
}
