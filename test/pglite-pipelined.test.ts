import { PGlite, types } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pipelinedPglite } from "@/db/pglite-pipelined";

/**
 * PGlite's `query` with batched protocol messages and statements prepared once (db/pglite-pipelined.ts):
 * against a real in-memory PGlite, it must answer exactly what PGlite's own `query` answers, fail the same
 * way, and keep PGlite's ordering with transactions.
 */

let pglite: PGlite;
let fast: PGlite;

// drizzle's options for a prepared query (drizzle-orm/pglite/session.js): rows as arrays, timestamps as text.
const DRIZZLE = {
  rowMode: "array" as const,
  parsers: { [types.TIMESTAMPTZ]: (value: string) => value, [types.TIMESTAMP]: (value: string) => value },
};

beforeAll(async () => {
  pglite = await PGlite.create();
  fast = pipelinedPglite(pglite);
  await pglite.exec(`create table items (
    id text primary key, n integer, ok boolean, doc jsonb not null default '{}', tags text[],
    at timestamptz not null default now(), note text)`);
});

afterAll(async () => {
  await pglite.close();
});

describe("pipelined PGlite queries", () => {
  it("answer what PGlite's query answers, with parameters serialised by their reported types", async () => {
    const at = new Date("2026-11-25T10:11:12.345Z");
    const insert = "insert into items (id, n, ok, doc, tags, at, note) values ($1, $2, $3, $4, $5, $6, $7)";
    const inserted = await fast.query(insert, ["a", 7, true, { k: [1, "x"] }, ["p", "q"], at, null]);
    expect(inserted.affectedRows).toBe(1);
    await pglite.query(insert, ["b", 8, false, { k: [] }, [], at, "note"]);
    const select = "select * from items where id = any($1) order by id";
    for (const options of [undefined, DRIZZLE, { rowMode: "object" as const }]) {
      const mine = await fast.query(select, [["a", "b"]], options);
      const theirs = await pglite.query(select, [["a", "b"]], options);
      expect(mine.rows).toEqual(theirs.rows);
      expect(mine.fields).toEqual(theirs.fields);
      expect(mine.rows).toHaveLength(2);
    }
    const [row] = (await fast.query<{ doc: unknown; at: Date; tags: string[] }>(select, [["a"]])).rows;
    expect(row).toMatchObject({ doc: { k: [1, "x"] }, tags: ["p", "q"], at });
    // Run again: the prepared statement is reused, the answers stay right.
    expect((await fast.query(select, [["b"]], DRIZZLE)).rows[0]).toEqual(
      (await pglite.query(select, [["b"]], DRIZZLE)).rows[0],
    );
  });

  it("fail as PGlite fails (code, query, params), and the statement still works afterwards", async () => {
    const insert = "insert into items (id, n) values ($1, $2)";
    await fast.query(insert, ["dup", 1]);
    const error = (await fast.query(insert, ["dup", 2]).catch((e) => e)) as {
      code?: string;
      query?: string;
      params?: unknown[];
    };
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe("23505");
    expect(error.query).toBe(insert);
    expect(error.params).toEqual(["dup", 2]);
    const syntax = (await fast.query("selec 1").catch((e) => e)) as { code?: string };
    expect(syntax.code).toBe("42601");
    expect((await fast.query(insert, ["dup2", 3])).affectedRows).toBe(1);
    expect((await fast.query("select 1 as one")).rows).toEqual([{ one: 1 }]);
  });

  it("prepare a statement again when DDL changes its result type", async () => {
    const select = "select * from items where id = $1";
    expect(Object.keys((await fast.query<object>(select, ["a"])).rows[0])).not.toContain("extra");
    await pglite.exec("alter table items add column extra text default 'e'");
    const [row] = (await fast.query<{ extra: string }>(select, ["a"])).rows;
    expect(row.extra).toBe("e");
  });

  it("keep working past the statement limit (the least recently used are closed)", async () => {
    for (let i = 0; i < 300; i++) {
      const { rows } = await fast.query<{ v: number }>(`select $1::int + ${i} as v`, [1]);
      expect(rows[0].v).toBe(i + 1);
    }
    const { rows } = await fast.query<{ v: number }>("select $1::int + 0 as v", [5]);
    expect(rows[0].v).toBe(5);
  });

  it("wait for an open transaction, as PGlite's query does", async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const transaction = pglite.transaction(async (tx) => {
      await tx.query("insert into items (id, n) values ('in-tx', 1)");
      await held;
    });
    const count = fast.query<{ n: number }>("select count(*)::int as n from items where id = 'in-tx'");
    let answered = false;
    void count.then(() => {
      answered = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(answered).toBe(false);
    release();
    await transaction;
    expect((await count).rows[0].n).toBe(1);
  });
});
