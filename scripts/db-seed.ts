import { closeDatabase, getDatabase } from "@/db/client";
import { runMigrations } from "@/db/migrate";
import { DEMO_LOGIN, seedDemo } from "@/db/seed";

async function main() {
  const database = await getDatabase();
  await runMigrations(database);
  const { created } = await seedDemo(database.db);
  console.log(created ? "Seeded the demo account." : "The database already has users; nothing seeded.");
  console.log(`Demo login: ${DEMO_LOGIN.email} / ${DEMO_LOGIN.password}`);
  await closeDatabase();
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
