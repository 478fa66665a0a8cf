import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { posts } from "@/db/schema";
import { ApiError } from "@/lib/api/api-error";
import type { Principal } from "@/lib/auth/authenticate";
import type { PostView, UpdatePostInput } from "@/lib/contracts/posts";
import { channelRuleIssues } from "./channel-rules";
import { getPostForPrincipal } from "./get-post";
import { toPostView } from "./post-view";

/** Saves the editor's changes. The post as it would be after the change must keep its channel's rules. */
export async function updatePostContent({
  principal,
  postId,
  input,
}: {
  principal: Principal;
  postId: string;
  input: UpdatePostInput;
}): Promise<PostView> {
  const db = await getDb();
  const row = await db.transaction(async (tx) => {
    const current = await getPostForPrincipal({ principal, postId, tx, forUpdate: true });
    const next = {
      caption: input.caption ?? current.caption,
      mediaPlan: input.mediaPlan ?? current.mediaPlan,
      hashtags: input.hashtags ?? current.hashtags,
    };
    const issues = channelRuleIssues(current.channel, next);
    if (issues.length) {
      throw new ApiError("invalid_request", `${issues[0].path}: ${issues[0].message}`, { details: issues });
    }
    const [updated] = await tx
      .update(posts)
      .set({
        ...next,
        ...(input.videoUrl !== undefined ? { videoUrl: input.videoUrl } : {}),
        updatedAt: new Date(),
      })
      .where(eq(posts.id, current.id))
      .returning();
    return updated;
  });
  return toPostView(row);
}
