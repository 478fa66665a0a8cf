import { getDatabase } from "@/db/client";
import { runMigrations } from "@/db/migrate";

/**
 * For tests that use the database in their own process: migrate it as `npm run db:migrate` would, since
 * `getDb()` only connects.
 */
export async function migrateInProcess() {
  await runMigrations(await getDatabase());
}
