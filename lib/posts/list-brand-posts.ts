import { and, desc, eq, lt, or } from "drizzle-orm";
import { getDb } from "@/db/client";
import { posts } from "@/db/schema";
import { ApiError } from "@/lib/api/api-error";
import type { Principal } from "@/lib/auth/authenticate";
import { getBrandForPrincipal } from "@/lib/brands/get-brand";
import type { PostView } from "@/lib/contracts/posts";
import { toPostView } from "./post-view";

type Cursor = { createdAt: Date; id: string };

const encodeCursor = ({ createdAt, id }: Cursor) =>
  Buffer.from(JSON.stringify([createdAt.toISOString(), id])).toString("base64url");

function decodeCursor(cursor: string): Cursor {
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    const date = new Date(createdAt);
    if (typeof id === "string" && !Number.isNaN(date.getTime())) return { createdAt: date, id };
  } catch {}
  throw new ApiError("invalid_request", "cursor: Use the nextCursor value from the previous page.", {
    details: [{ path: "cursor", message: "Not a cursor this API issued." }],
  });
}

/** A brand's posts, newest first; the cursor is the last item's (createdAt, id), so pages never overlap. */
export async function listBrandPosts({
  principal,
  brandId,
  cursor,
  limit,
}: {
  principal: Principal;
  brandId: string;
  cursor?: string;
  limit: number;
}): Promise<{ items: PostView[]; nextCursor: string | null }> {
  const after = cursor ? decodeCursor(cursor) : undefined;
  const brand = await getBrandForPrincipal({ principal, brandId });
  const db = await getDb();
  const rows = await db
    .select()
    .from(posts)
    .where(
      and(
        eq(posts.brandId, brand.id),
        after
          ? or(
              lt(posts.createdAt, after.createdAt),
              and(eq(posts.createdAt, after.createdAt), lt(posts.id, after.id)),
            )
          : undefined,
      ),
    )
    .orderBy(desc(posts.createdAt), desc(posts.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    items: page.map(toPostView),
    nextCursor: rows.length > limit && last ? encodeCursor(last) : null,
  };
}
