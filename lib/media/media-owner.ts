import "server-only";
import { and, eq } from "drizzle-orm";
import { type Db, getDb, type Tx } from "@/db/client";
import { channelConnections, posts, videoJobs } from "@/db/schema";
import { getEnv } from "@/lib/config";
import { storedMediaKey } from "./storage";

/**
 * The media key a URL names when it is one of this site's media files: a key, `/media/<key>` (with or
 * without a signature), or the same on APP_URL's origin. Null for any other site's URL or path.
 */
export function ownMediaKey(url: string): string | null {
  const bare = storedMediaKey(url.startsWith("/") ? null : url);
  if (bare) return bare;
  const appUrl = getEnv().APP_URL;
  let parsed: URL;
  try {
    parsed = new URL(url, appUrl ?? "http://own.invalid");
  } catch {
    return null;
  }
  const own = url.startsWith("/") || (appUrl !== undefined && parsed.origin === new URL(appUrl).origin);
  if (!own || !parsed.pathname.startsWith("/media/")) return null;
  try {
    return storedMediaKey(decodeURIComponent(parsed.pathname));
  } catch {
    return null;
  }
}

/**
 * Whether a media key is the brand's, by the row its folder names: `videos/<jobId>/…` (a video job),
 * `posts/<postId>/…`, `channels/<channelId>/…`, `brands/<brandId>/…` and `avatars/<brandId>/…`. Any other
 * key is no brand's. A post, a render or a publication uses only files its brand owns.
 */
export async function brandOwnsMediaKey(brandId: string, key: string, tx?: Db | Tx): Promise<boolean> {
  const [folder, id] = key.split("/");
  if (!id) return false;
  if (folder === "brands" || folder === "avatars") return id === brandId;
  const db = tx ?? (await getDb());
  const owned = (table: typeof videoJobs | typeof posts | typeof channelConnections) =>
    db
      .select({ id: table.id })
      .from(table)
      .where(and(eq(table.id, id), eq(table.brandId, brandId)))
      .limit(1);
  const tables = { videos: videoJobs, posts, channels: channelConnections } as const;
  if (!(folder in tables)) return false;
  const [row] = await owned(tables[folder as keyof typeof tables]);
  return row !== undefined;
}

/** The key a stored value (key or own URL) names when it is another brand's file, else null. */
export async function foreignMediaKey(brandId: string, stored: string, tx?: Db | Tx) {
  const key = ownMediaKey(stored);
  return key && !(await brandOwnsMediaKey(brandId, key, tx)) ? key : null;
}
