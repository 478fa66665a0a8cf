import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as pgliteDrizzle } from "drizzle-orm/pglite";
import { migrate as pgliteMigrate } from "drizzle-orm/pglite/migrator";
import { drizzle as postgresDrizzle } from "drizzle-orm/postgres-js";
import { migrate as postgresMigrate } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "./support/test-server";

/**
 * Migration 0013 adds a unique index over open invitations per (brand, lower(email)). Databases made before it
 * may hold duplicates; it keeps the one issued last and revokes the others instead of failing. Runs on
 * PostgreSQL when DATABASE_URL is set, else on PGlite.
 */
const MIGRATIONS = path.join(process.cwd(), "db", "migrations");
const BEFORE = "0013_invitation_open_email";

/** A copy of the migrations folder whose journal stops before `tag`. */
function migrationsBefore(tag: string) {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "bs-migrations-"));
  fs.cpSync(MIGRATIONS, folder, { recursive: true });
  const journalFile = path.join(folder, "meta", "_journal.json");
  const journal = JSON.parse(fs.readFileSync(journalFile, "utf8")) as { entries: { tag: string }[] };
  const cut = journal.entries.findIndex((entry) => entry.tag === tag);
  expect(cut, tag).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, cut);
  fs.writeFileSync(journalFile, JSON.stringify(journal));
  return folder;
}

type Db = {
  /** One statement; its rows. */
  query: (text: string) => Promise<Record<string, unknown>[]>;
  /** Several statements, as a script. */
  exec: (text: string) => Promise<void>;
  migrate: (folder: string) => Promise<void>;
  close: () => Promise<void>;
};

async function openDatabase(): Promise<Db> {
  if (process.env.DATABASE_URL) {
    const database = await createTestDatabase(process.env.DATABASE_URL, { fresh: true });
    const client = postgres(database.url, { max: 1, onnotice: () => {} });
    const db = postgresDrizzle(client);
    return {
      query: async (text) => [...(await client.unsafe(text))],
      exec: async (text) => {
        await client.unsafe(text).simple();
      },
      migrate: (folder) => postgresMigrate(db, { migrationsFolder: folder }),
      close: async () => {
        await client.end();
        await database.drop();
      },
    };
  }
  const client = new PGlite();
  const db = pgliteDrizzle(client);
  return {
    query: async (text) => (await client.query<Record<string, unknown>>(text)).rows,
    exec: async (text) => {
      await client.exec(text);
    },
    migrate: (folder) => pgliteMigrate(db, { migrationsFolder: folder }),
    close: () => client.close(),
  };
}

let db: Db;
const folders: string[] = [];

beforeAll(async () => {
  db = await openDatabase();
});

afterAll(async () => {
  await db?.close();
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

describe("migration 0013 (one open invitation per brand and email)", () => {
  it("revokes all but the last-issued open duplicate, then refuses a new duplicate", async () => {
    const before = migrationsBefore(BEFORE);
    folders.push(before);
    await db.migrate(before);
    await db.exec(`
      insert into users (id, email) values ('usr_owner', 'owner@example.test');
      insert into brands (id, name) values ('brd_one', 'One'), ('brd_two', 'Two');
      insert into brand_invitations (id, brand_id, email, role, token_hash, created_at, expires_at, accepted_at, revoked_at)
      values
        ('inv_old', 'brd_one', 'sam@example.test', 'viewer', 'h1', now() - interval '9 days', now() - interval '2 days', null, null),
        ('inv_new', 'brd_one', 'Sam@Example.test', 'editor', 'h2', now() - interval '1 day', now() + interval '6 days', null, null),
        ('inv_used', 'brd_one', 'sam@example.test', 'viewer', 'h3', now() - interval '20 days', now() - interval '13 days', now() - interval '19 days', null),
        ('inv_gone', 'brd_one', 'sam@example.test', 'viewer', 'h4', now() - interval '5 days', now() + interval '2 days', null, now() - interval '4 days'),
        ('inv_other', 'brd_two', 'sam@example.test', 'viewer', 'h5', now() - interval '9 days', now() - interval '2 days', null, null);
    `);

    await db.migrate(MIGRATIONS);

    const rows = await db.query(
      "select id, accepted_at is not null as accepted, revoked_at is not null as revoked from brand_invitations order by id",
    );
    expect(rows).toEqual([
      { id: "inv_gone", accepted: false, revoked: true },
      { id: "inv_new", accepted: false, revoked: false },
      { id: "inv_old", accepted: false, revoked: true },
      { id: "inv_other", accepted: false, revoked: false },
      { id: "inv_used", accepted: true, revoked: false },
    ]);
    await expect(
      db.query(`insert into brand_invitations (id, brand_id, email, role, token_hash, expires_at)
        values ('inv_dup', 'brd_one', 'SAM@example.test', 'viewer', 'h6', now() + interval '7 days')`),
    ).rejects.toMatchObject({ code: "23505" });
  });
});
