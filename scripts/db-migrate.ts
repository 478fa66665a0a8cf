import { closeDatabase, getDatabase } from "@/db/client";
import { runMigrations } from "@/db/migrate";

async function main() {
  const database = await getDatabase();
  await runMigrations(database);
  console.log(`Migrations applied (${database.kind}).`);
  await closeDatabase();
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
