import "server-only";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import type { ExtractTablesWithRelations } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type { Sql } from "postgres";
import { DatabaseNotMigratedError, findPendingMigrations } from "./migration-state";
import { acquireDataDirLock } from "./pglite-lock";
import { initPgliteInChild, pgliteStartParams } from "./pglite-options";
import * as schema from "./schema";

export { DatabaseNotMigratedError } from "./migration-state";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema, ExtractTablesWithRelations<typeof schema>>;
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export type Database =
  | {
      kind: "pglite";
      db: Db;
      /** PGlite itself (pg-boss, migrations' own statements). */
      pglite: PGlite;
      /** What drizzle queries through: PGlite with batched, prepared statements (db/pglite-pipelined.ts). */
      client: PGlite;
      close: () => Promise<void>;
    }
  | { kind: "postgres"; db: Db; sql: Sql; url: string; close: () => Promise<void> };

/**
 * Where the database is: PostgreSQL at `url`, or PGlite under `dataDir` when there is no URL.
 * `traceStatements`: one span per statement (db/traced-driver.ts); the entry point sets it when tracing is
 * on. Off, drizzle gets the driver itself.
 */
export type DatabaseSettings = { url?: string; dataDir: string; traceStatements?: boolean };

// Next bundles routes and the instrumentation hook separately; the one connection lives on globalThis.
const globalForDb = globalThis as unknown as {
  brandStudioDb?: Promise<Database>;
  brandStudioDbSettings?: () => DatabaseSettings;
  brandStudioDbChecked?: Promise<void>;
};

/**
 * `db/` reads no configuration: each entry point (the web start-up, the worker, the scripts, the tests)
 * says where the database is, once, before the first query. A function, so a changed setting is read
 * when the database is next opened.
 */
export function configureDatabase(settings: () => DatabaseSettings) {
  globalForDb.brandStudioDbSettings = settings;
}

function settings(): DatabaseSettings {
  if (!globalForDb.brandStudioDbSettings) {
    throw new Error("The database is not configured: the entry point must call configureDatabase() first.");
  }
  return globalForDb.brandStudioDbSettings();
}

async function openPostgres(url: string, traceStatements = false): Promise<Database> {
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const sql = postgres(url, {
    max: 10,
    onnotice: () => {},
    connect_timeout: 5,
    // postgres.js waits before a connection tries again after a failed one, and the wait grows with every
    // failure in the pool (3^n / 100 s, up to 20 s): after a minute-long outage the first query once the
    // database is back waited up to 20 s. A try is one cheap refused connect, made only when a query asks
    // for it, so the wait doubles from 0.1 s and stops at 1 s.
    backoff: (retries: number) => Math.min(0.05 * 2 ** retries, 1),
  });
  const db = drizzle(traceStatements ? await tracedSql(sql, url) : sql, { schema }) as unknown as Db;
  return { kind: "postgres", db, sql, url, close: () => sql.end({ timeout: 5 }) };
}

/** The postgres.js client with statement spans; the server's host, port and database name, never its password. */
async function tracedSql(sql: Sql, url: string): Promise<Sql> {
  const { traceSql } = await import("./traced-driver");
  const server: Record<string, string | number> = {};
  try {
    const parsed = new URL(url);
    server["server.address"] = parsed.hostname;
    server["server.port"] = Number(parsed.port || 5432);
    const namespace = decodeURIComponent(parsed.pathname.replace(/^\//, ""));
    if (namespace) server["db.namespace"] = namespace;
  } catch {}
  return traceSql(sql, server);
}

async function openPglite(dataDir: string, traceStatements = false): Promise<Database> {
  const release = acquireDataDirLock(dataDir);
  try {
    const { PGlite } = await import("@electric-sql/pglite");
    const { drizzle } = await import("drizzle-orm/pglite");
    const folder = path.join(dataDir, "pglite");
    // If the child could not run (no node binary, say), PGlite initialises the folder itself, in-process.
    await initPgliteInChild(folder);
    const pglite = await PGlite.create(folder, { startParams: await pgliteStartParams() });
    const pipelined = (await import("./pglite-pipelined")).pipelinedPglite(pglite);
    const client = traceStatements ? (await import("./traced-driver")).tracePglite(pipelined) : pipelined;
    const db = drizzle(client, { schema }) as unknown as Db;
    process.once("exit", release);
    return {
      kind: "pglite",
      db,
      pglite,
      client: pipelined,
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

/** The one place that decides which database the app has. Opens it; never migrates or seeds. */
export function getDatabase(): Promise<Database> {
  if (!globalForDb.brandStudioDb) {
    const { url, dataDir, traceStatements } = settings();
    const opening = url ? openPostgres(url, traceStatements) : openPglite(dataDir, traceStatements);
    opening.catch(() => {
      if (globalForDb.brandStudioDb === opening) globalForDb.brandStudioDb = undefined;
    });
    globalForDb.brandStudioDb = opening;
  }
  return globalForDb.brandStudioDb;
}

/**
 * The app's database, connected, once it is known to have every committed migration. It never migrates:
 * on a database that is behind it rejects with DatabaseNotMigratedError (naming `npm run db:migrate`),
 * and looks again on the next call, so a server heals as soon as the migration has run.
 */
export async function getDb(): Promise<Db> {
  const database = await getDatabase();
  if (!globalForDb.brandStudioDbChecked) {
    const checking = findPendingMigrations(database).then((pending) => {
      if (pending.length > 0) throw new DatabaseNotMigratedError(pending);
    });
    checking.catch(() => {
      if (globalForDb.brandStudioDbChecked === checking) globalForDb.brandStudioDbChecked = undefined;
    });
    globalForDb.brandStudioDbChecked = checking;
  }
  await globalForDb.brandStudioDbChecked;
  return database.db;
}

/**
 * A statement built and prepared once per database rather than per request (drizzle's query building and
 * row mapping setup cost more than the query itself on the hot paths). `build` gets the database and
 * returns drizzle's prepared query.
 */
export function preparedPerDb<T>(build: (db: Db) => T): (db: Db) => T {
  const statements = new WeakMap<Db, T>();
  return (db) => {
    let statement = statements.get(db);
    if (!statement) {
      statement = build(db);
      statements.set(db, statement);
    }
    return statement;
  };
}

export async function closeDatabase() {
  const opening = globalForDb.brandStudioDb;
  globalForDb.brandStudioDb = undefined;
  globalForDb.brandStudioDbChecked = undefined;
  if (opening) await (await opening).close();
}
