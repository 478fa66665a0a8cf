import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { type MediaPlan, posts } from "@/db/schema";
import { recordActivity } from "@/lib/activity/record-activity";
import type { Principal } from "@/lib/auth/authenticate";
import type { PostView, UpdatePostInput } from "@/lib/contracts/posts";
import { ApiError } from "@/lib/errors/api-error";
import { log } from "@/lib/log";
import { foreignMediaKey } from "@/lib/media/media-owner";
import { getMediaStorage } from "@/lib/media/storage";
import { applyContentEdit } from "./apply-content-edit";
import { channelRuleIssues } from "./channel-rules";
import { getPostForPrincipal } from "./get-post";
import { brandVideoKey, pathOf } from "./post-video";
import { toSignedPostView } from "./post-view";

/**
 * The plan to store from the plan the editor sent: an image item keeps an image of this post when it
 * sends that image's `imageUrl` back (a signed URL, expired or not: only the key in its path counts,
 * and only keys the post already holds), so items can be reordered or removed without losing images.
 * A kept image keeps its background job's state (the job follows the image's key); a sent state is ignored.
 * An editor that still holds a new draft's card after the model's image replaced it keeps the model's image.
 */
function withImageKeys(sent: NonNullable<UpdatePostInput["mediaPlan"]>, current: MediaPlan): MediaPlan {
  const held = current.items.filter((item) => item.imageKey);
  return {
    format: sent.format,
    items: sent.items.map(({ imageUrl, imageJob: _ignored, ...item }) => {
      const path = imageUrl ? pathOf(imageUrl) : null;
      const kept =
        path && item.type === "image"
          ? held.find((candidate) =>
              [candidate.imageKey, candidate.imageJob?.card].some((key) => key && path.endsWith(`/${key}`)),
            )
          : undefined;
      if (!kept) return item;
      return kept.imageJob
        ? { ...item, imageKey: kept.imageKey, imageJob: kept.imageJob }
        : { ...item, imageKey: kept.imageKey };
    }),
  };
}

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
  const { row, dropped } = await db.transaction(async (tx) => {
    const current = await getPostForPrincipal({
      principal,
      postId,
      permission: "post.update",
      tx,
      forUpdate: true,
    });
    const next = {
      caption: input.caption ?? current.caption,
      mediaPlan: input.mediaPlan ? withImageKeys(input.mediaPlan, current.mediaPlan) : current.mediaPlan,
      hashtags: input.hashtags ?? current.hashtags,
    };
    const issues = channelRuleIssues(current.channel, next);
    if (issues.length) {
      throw new ApiError("invalid_request", `${issues[0].path}: ${issues[0].message}`, { details: issues });
    }
    // One of the brand's own videos is kept by its key and signed afresh on every read; a link that was
    // handed out for it expires, the post's video must not. Any other URL is kept as it was sent.
    const videoUrl =
      typeof input.videoUrl === "string"
        ? ((await brandVideoKey(tx, current.brandId, input.videoUrl)) ?? input.videoUrl)
        : input.videoUrl;
    // A post shows and sends only its own brand's files: another brand's video (its job id is no secret)
    // is refused by the key's owner in the database. Another site's URL is kept (fetched by the platform).
    if (typeof videoUrl === "string" && (await foreignMediaKey(current.brandId, videoUrl, tx))) {
      const message =
        "This is not one of this brand's media files. Use one of the brand's videos or an https URL.";
      throw new ApiError("invalid_request", `videoUrl: ${message}`, {
        details: [{ path: "videoUrl", message }],
      });
    }
    const status = await applyContentEdit(tx, current, {
      ...next,
      videoUrl: videoUrl !== undefined ? videoUrl : current.videoUrl,
    });
    const [updated] = await tx
      .update(posts)
      .set({
        ...next,
        status,
        ...(videoUrl !== undefined ? { videoUrl } : {}),
        updatedAt: new Date(),
      })
      .where(eq(posts.id, current.id))
      .returning();
    await recordActivity(tx, {
      brandId: current.brandId,
      actorId: principal.userId,
      action: "post.updated",
      subjectType: "post",
      subjectId: current.id,
      details: {
        fields: Object.keys(input),
        ...(status !== current.status ? { from: current.status, to: status } : {}),
      },
    });
    const kept = new Set(next.mediaPlan.items.map((item) => item.imageKey));
    const dropped = current.mediaPlan.items
      .map((item) => item.imageKey)
      .filter((key): key is string => !!key && !kept.has(key));
    return { row: updated, dropped };
  });
  // Images no item holds any more are removed once the change is saved.
  for (const key of new Set(dropped)) {
    await getMediaStorage()
      .remove(key)
      .catch((error) => log.warn("media_image_not_removed", { postId, error }));
  }
  return toSignedPostView(row);
}
