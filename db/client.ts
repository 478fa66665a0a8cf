import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import type { ExtractTablesWithRelations } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type { Sql } from "postgres";
import { config } from "@/lib/config";
import { acquireDataDirLock } from "./pglite-lock";
import { initPgliteInChild, pgliteStartParams } from "./pglite-options";
import * as schema from "./schema";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema, ExtractTablesWithRelations<typeof schema>>;
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export type Database =
  | { kind: "pglite"; db: Db; pglite: PGlite; close: () => Promise<void> }
  | { kind: "postgres"; db: Db; sql: Sql; url: string; close: () => Promise<void> };

// Next bundles routes and the instrumentation hook separately; the one connection lives on globalThis.
const globalForDb = globalThis as unknown as { brandStudioDb?: Promise<Database> };

async function openPostgres(url: string): Promise<Database> {
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const sql = postgres(url, { max: 10, onnotice: () => {}, connect_timeout: 5 });
  const db = drizzle(sql, { schema }) as unknown as Db;
  return { kind: "postgres", db, sql, url, close: () => sql.end({ timeout: 5 }) };
}

async function openPglite(dataDir: string): Promise<Database> {
  const release = acquireDataDirLock(dataDir);
  try {
    const { PGlite } = await import("@electric-sql/pglite");
    const { drizzle } = await import("drizzle-orm/pglite");
    const folder = path.join(dataDir, "pglite");
    // If the child could not run (no node binary, say), PGlite initialises the folder itself, in-process.
    await initPgliteInChild(folder);
    const pglite = await PGlite.create(folder, { startParams: await pgliteStartParams() });
    const db = drizzle(pglite, { schema }) as unknown as Db;
    process.once("exit", release);
    return {
      kind: "pglite",
      db,
      pglite,
      close: async () => {
        await pglite.close();
        release();
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}

/** The one place that decides which database the app has. */
export function getDatabase(): Promise<Database> {
  if (!globalForDb.brandStudioDb) {
    const url = config.databaseUrl;
    const opening = url ? openPostgres(url) : openPglite(config.dataDir);
    opening.catch(() => {
      if (globalForDb.brandStudioDb === opening) globalForDb.brandStudioDb = undefined;
    });
    globalForDb.brandStudioDb = opening;
  }
  return globalForDb.brandStudioDb;
}

/** The app's database, migrated and seeded. A failed preparation is retried on the next call. */
export async function getDb(): Promise<Db> {
  const { prepareDatabase } = await import("./prepare");
  await prepareDatabase();
  return (await getDatabase()).db;
}

export async function closeDatabase() {
  const opening = globalForDb.brandStudioDb;
  globalForDb.brandStudioDb = undefined;
  if (opening) await (await opening).close();
}
