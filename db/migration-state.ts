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
  const result = (await database.db.execute(
    sql`select case when to_regclass('drizzle.__drizzle_migrations') is null then null
        else (select max(created_at)::text from drizzle.__drizzle_migrations) end as last`,
  )) as unknown as { rows?: { last: string | null }[] } | { last: string | null }[];
  const last = (Array.isArray(result) ? result[0] : result.rows?.[0])?.last;
  const applied = last === null || last === undefined ? -1 : Number(last);
  return readJournal()
    .filter((entry) => entry.when > applied)
    .map((entry) => entry.tag);
}
