import "server-only";
import { and, desc, eq, lt, or, type SQL } from "drizzle-orm";
import type { AnyPgColumn, PgTable } from "drizzle-orm/pg-core";
import { getDb } from "@/db/client";
import { encodePageCursor, type PageCursor } from "@/lib/contracts/common";

type KeysetTable = PgTable & { createdAt: AnyPgColumn; id: AnyPgColumn };

/**
 * One page of `table`'s rows matching `where`, newest first, keyset-paginated on (createdAt, id): the cursor
 * is the last item's, so pages never overlap or skip a row inserted meanwhile.
 */
export async function pageBy<Row extends { createdAt: Date; id: string }>(
  table: KeysetTable,
  where: SQL | undefined,
  { cursor, limit }: { cursor?: PageCursor; limit: number },
): Promise<{ page: Row[]; nextCursor: string | null }> {
  const after = cursor
    ? or(
        lt(table.createdAt, cursor.createdAt),
        and(eq(table.createdAt, cursor.createdAt), lt(table.id, cursor.id)),
      )
    : undefined;
  const db = await getDb();
  const rows = (await db
    .select()
    .from(table)
    .where(and(where, after))
    .orderBy(desc(table.createdAt), desc(table.id))
    .limit(limit + 1)) as Row[];
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { page, nextCursor: rows.length > limit && last ? encodePageCursor(last) : null };
}
