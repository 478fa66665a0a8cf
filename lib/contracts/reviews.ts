import { z } from "zod";
import { userText } from "./common";
import { defineOperation } from "./operation";
import { postParams, post as postView } from "./posts";
import { ROUTES } from "./routes";

export { postParams };

const comment = userText()
  .trim()
  .max(2000, "Use at most 2,000 characters for the comment.")
  .meta({ example: "Lead with the origin of the beans, then the offer." });

export const submitPostBody = z.strictObject(
  { comment: comment.optional().describe("A note for the reviewer.") },
  { error: "Send { comment? }." },
);

export const reviewPostBody = z.strictObject(
  {
    decision: z
      .enum(["approve", "request_changes"], { error: "The decision must be approve or request_changes." })
      .meta({ example: "request_changes" }),
    comment: comment
      .optional()
      .describe("What to change (shown to the author); required to request changes."),
    version: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .optional()
      .describe(
        "The post's `version` (its ETag, without quotes) that the reviewer read. Required to approve (or send it as If-Match); when the post changed since, the answer is 412 post_changed and nothing is decided.",
      )
      .meta({ example: "q4O2k7xv8kqT1yQb3m0Jx2a1b9cWcW6P1oVf0yXQz1E" }),
  },
  { error: "Send { decision, comment?, version? }." },
);

export const reviewQueueResponse = z
  .object({
    items: z
      .array(postView)
      .describe("Posts in review on brands where the caller approves, oldest first (at most 100)."),
  })
  .meta({ id: "ReviewQueue" });

export const submitPost = defineOperation({
  ...ROUTES.submitPost,
  title: "Submit post for review",
  auth: "bearer",
  permission: "post.submit",
  summary: "Sends a draft to the brand's owners for approval (status in_review).",
  pathParams: postParams,
  body: submitPostBody,
  responses: { 200: { description: "The post, now in review.", schema: postView } },
  errors: ["invalid_request", "payload_too_large"],
});

export const reviewPost = defineOperation({
  ...ROUTES.reviewPost,
  title: "Review post",
  auth: "bearer",
  permission: "post.approve",
  summary:
    "Approves the version of a post in review that the reviewer read (`version` or If-Match; 412 post_changed when it was edited since), or sends it back to draft with a comment. The approval records that version: publications send only it, and an approval resumes the post's held publications.",
  pathParams: postParams,
  body: reviewPostBody,
  responses: { 200: { description: "The post after the decision.", schema: postView } },
  errors: ["invalid_request", "post_changed", "payload_too_large"],
});

export const listReviewQueue = defineOperation({
  ...ROUTES.listReviewQueue,
  title: "List posts to review",
  auth: "bearer",
  summary: "The posts waiting for the caller's approval, across their brands.",
  responses: { 200: { description: "The posts in review.", schema: reviewQueueResponse } },
  errors: ["service_unavailable"],
});
