import type { PostStatus } from "@/lib/contracts/enums";
import { ApiError } from "@/lib/errors/api-error";

/**
 * The post's approval state machine (DESIGN §10), in one place for the review operations, the editor and
 * publishing:
 *
 *   draft ──submit──▶ in_review ──approve──▶ approved ──schedule──▶ scheduled ──▶ published
 *     ▲                   │
 *     └─request changes───┘   editing an approved, scheduled or published post ──▶ in_review (approval on)
 *                                                                            └──▶ draft (approval off)
 */
export type ReviewAction = "submit" | "approve" | "request_changes";

const FROM: Record<ReviewAction, PostStatus[]> = {
  submit: ["draft"],
  approve: ["in_review"],
  request_changes: ["in_review"],
};
const TO: Record<ReviewAction, PostStatus> = {
  submit: "in_review",
  approve: "approved",
  request_changes: "draft",
};

/** The status after `action`, or 409 invalid transition as `post_not_approved`'s sibling `invalid_request`. */
export function reviewTransition(status: PostStatus, action: ReviewAction): PostStatus {
  if (!FROM[action].includes(status)) {
    const message = `A post that is ${status.replace("_", " ")} cannot be ${
      { submit: "submitted", approve: "approved", request_changes: "sent back for changes" }[action]
    }.`;
    throw new ApiError("invalid_request", message, { details: [{ path: "(request)", message }] });
  }
  return TO[action];
}

/**
 * Editing content: an approved, scheduled or published post goes back to review when the brand requires
 * approval (a published post's edit is a new version for the channels still to come); without approval an
 * approved or scheduled post goes back to draft.
 */
export function statusAfterEdit(status: PostStatus, requiresApproval: boolean): PostStatus {
  if (requiresApproval)
    return status === "approved" || status === "scheduled" || status === "published" ? "in_review" : status;
  if (status === "approved" || status === "scheduled") return "draft";
  return status;
}

/** Publishing and scheduling call this first: with approval on, only an approved post may go out. */
export function assertPublishable(
  { status }: { status: PostStatus },
  { requiresApproval }: { requiresApproval: boolean },
) {
  if (!requiresApproval) return;
  if (status === "approved" || status === "scheduled") return;
  throw new ApiError(
    "post_not_approved",
    "This brand needs an owner's approval before a post is scheduled or published; submit it for review.",
    { details: { status } },
  );
}
