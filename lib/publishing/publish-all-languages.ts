import "server-only";
import { and, desc, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { channelConnections, posts } from "@/db/schema";
import type { Principal } from "@/lib/auth/authenticate";
import { requireBrandPermission } from "@/lib/brands/brand-access";
import type { PublishAllLanguagesInput } from "@/lib/contracts/post-groups";
import { ApiError } from "@/lib/errors/api-error";
import { log } from "@/lib/log";
import { getPostForPrincipal } from "@/lib/posts/get-post";
import { createPublication } from "./create-publication";

/**
 * POST /api/posts/{postId}/publications/all-languages (DESIGN §11): the newest draft of each language in
 * the post's group goes to every channel of that language. Each is an ordinary publication (Publish post),
 * with its own rules and approval check; one refused does not hold back the others.
 */
export async function publishAllLanguages({
  principal,
  postId,
  input,
}: {
  principal: Principal;
  postId: string;
  input: PublishAllLanguagesInput;
}) {
  const post = await getPostForPrincipal({ principal, postId, permission: "publication.create" });
  const { brand } = await requireBrandPermission({
    principal,
    brandId: post.brandId,
    permission: "publication.create",
  });
  const db = await getDb();
  const [group, channels] = await Promise.all([
    db
      .select({ id: posts.id, language: posts.language })
      .from(posts)
      .where(and(eq(posts.groupId, post.groupId), eq(posts.brandId, post.brandId)))
      .orderBy(desc(posts.createdAt), desc(posts.id)),
    db
      .select({ id: channelConnections.id, language: channelConnections.language })
      .from(channelConnections)
      .where(eq(channelConnections.brandId, post.brandId))
      .orderBy(channelConnections.createdAt, channelConnections.id),
  ]);
  // The newest version of each language, in the brand's language order (others after, as they come).
  const newest = new Map<string, string>();
  for (const version of group) if (!newest.has(version.language)) newest.set(version.language, version.id);
  const rank = (language: string) => {
    const index = brand.languages.indexOf(language);
    return index < 0 ? brand.languages.length : index;
  };
  const versions = [...newest].sort(([a], [b]) => rank(a) - rank(b));

  const items = [];
  const unmatched: string[] = [];
  for (const [language, versionId] of versions) {
    const targets = channels.filter((channel) => channel.language === language);
    if (!targets.length) unmatched.push(language);
    for (const channel of targets) {
      try {
        const created = await createPublication({
          principal,
          postId: versionId,
          input: { channelId: channel.id, placement: "feed", publishAt: input.publishAt },
        });
        items.push({
          postId: versionId,
          language,
          channelId: channel.id,
          publicationId: created.publicationId,
          status: created.status,
          error: null,
        });
      } catch (error) {
        if (!(error instanceof ApiError) || error.status >= 500) throw error;
        items.push({
          postId: versionId,
          language,
          channelId: channel.id,
          publicationId: null,
          status: null,
          error: { code: error.code, message: error.message },
        });
      }
    }
  }
  log.info("post_group_published", {
    groupId: post.groupId,
    brandId: post.brandId,
    publications: items.filter((item) => item.publicationId).length,
    refused: items.filter((item) => item.error).length,
    unmatched,
  });
  return { groupId: post.groupId, items, unmatched };
}
