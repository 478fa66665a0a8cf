import { configureDatabase, getDatabase, getDb } from "@/db/client";
import { runMigrations } from "@/db/migrate";
import { seedDemo } from "@/lib/auth/seed-demo";
import { config, getEnv } from "@/lib/config";
import { log } from "@/lib/log";
import { tracingEnabled } from "@/lib/telemetry/tracing";

/**
 * Points `db/` at the configured database (DATABASE_URL, else PGlite in DATA_DIR). Every entry point calls
 * it. With tracing on (started before this), every statement drizzle runs gets a span.
 */
export function configureDatabaseFromEnv() {
  configureDatabase(() => ({
    url: config.databaseUrl,
    dataDir: config.dataDir,
    traceStatements: tracingEnabled(),
  }));
}

/**
 * Start-up's database duties, kept apart from `getDb()` (which only connects):
 * - migrate, only where that is the safe default: PGlite (one process) and development;
 *   everywhere else `npm run db:migrate` is the deploy's one-shot step, and a database that is behind
 *   makes `getDb()` fail naming that command;
 * - seed the demo account, only when SEED_DEMO is on (the default outside production).
 */
export async function prepareDatabase(options: { seed: boolean }) {
  configureDatabaseFromEnv();
  const env = getEnv();
  const database = await getDatabase();
  if (database.kind === "pglite" || env.NODE_ENV === "development") {
    await runMigrations(database);
    log.info("database_migrated", { database: database.kind });
  }
  const db = await getDb();
  if (options.seed && env.SEED_DEMO) {
    const { created } = await seedDemo(db);
    if (created) log.info("demo_account_created", { hint: "SEED_DEMO=false turns this off" });
  }
}
