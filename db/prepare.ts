import { getDatabase } from "./client";
import { runMigrations } from "./migrate";
import { seedDemo } from "./seed";

const globalForPrepare = globalThis as unknown as { brandStudioPrepared?: Promise<void> };

/** Opens the database, applies migrations and seeds an empty one. Runs once per process. */
export function prepareDatabase() {
  globalForPrepare.brandStudioPrepared ??= (async () => {
    const database = await getDatabase();
    await runMigrations(database);
    await seedDemo(database.db);
  })();
  globalForPrepare.brandStudioPrepared.catch(() => {
    globalForPrepare.brandStudioPrepared = undefined;
  });
  return globalForPrepare.brandStudioPrepared;
}
