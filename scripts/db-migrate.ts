import { closeDatabase, getDatabase } from "@/db/client";
import { runMigrations } from "@/db/migrate";
import { assertConfig } from "@/lib/config";
import { configureDatabaseFromEnv } from "@/lib/server/prepare-database";

/** `npm run db:migrate`: the deploy's one-shot step, before any web or worker process of a new version. */
async function main() {
  assertConfig();
  configureDatabaseFromEnv();
  const database = await getDatabase();
  await runMigrations(database);
  console.log(`Migrations applied (${database.kind}).`);
  await closeDatabase();
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
