import { closeDatabase, getDatabase, getDb } from "@/db/client";
import { runMigrations } from "@/db/migrate";
import { DEMO_LOGIN } from "@/db/seed";
import { seedDemo } from "@/lib/auth/seed-demo";
import { assertConfig } from "@/lib/config";
import { configureDatabaseFromEnv } from "@/lib/server/prepare-database";

/** `npm run db:seed`: migrates, then creates the demo account on a database with no users (whatever SEED_DEMO says). */
async function main() {
  assertConfig();
  configureDatabaseFromEnv();
  await runMigrations(await getDatabase());
  const { created } = await seedDemo(await getDb());
  console.log(created ? "Seeded the demo account." : "The database already has users; nothing seeded.");
  if (created) console.log(`Demo login: ${DEMO_LOGIN.email} / ${DEMO_LOGIN.password}`);
  await closeDatabase();
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
