import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { Database } from "./client";

export const migrationsFolder = path.join(process.cwd(), "db", "migrations");

/** A database that lacks committed migrations: the server answers 503 until `npm run db:migrate` has run. */
export class DatabaseNotMigratedError extends Error {
  constructor(readonly pending: string[]) {
    super(
      `The database is missing ${pending.length} migration(s) (${pending.join(", ")}): run npm run db:migrate.`,
    );
    this.name = "DatabaseNotMigratedError";
  }
}

type JournalEntry = { tag: string; when: number };

function readJournal(): JournalEntry[] {
  const file = path.join(migrationsFolder, "meta", "_journal.json");
  return (JSON.parse(fs.readFileSync(file, "utf8")) as { entries: JournalEntry[] }).entries;
}

/**
 * The tags of the committed migrations the database has not applied yet, oldest first. Drizzle's migrator
 * records each applied migration's journal time; anything newer than the last one is pending.
 */
export async function findPendingMigrations(database: Database): Promise<string[]> {
  const firstRow = async (query: ReturnType<typeof sql>) => {
    const result = (await database.db.execute(query)) as unknown as
      | { rows?: Record<string, unknown>[] }
      | Record<string, unknown>[];
    return (Array.isArray(result) ? result[0] : result.rows?.[0]) ?? {};
  };
  // Two statements: PostgreSQL resolves every table a statement names before running it.
  const { present } = await firstRow(
    sql`select to_regclass('drizzle.__drizzle_migrations') is not null as present`,
  );
  const { last } = present
    ? await firstRow(sql`select max(created_at)::text as last from drizzle.__drizzle_migrations`)
    : { last: null };
  const applied = typeof last === "string" ? Number(last) : -1;
  return readJournal()
    .filter((entry) => entry.when > applied)
    .map((entry) => entry.tag);
}
