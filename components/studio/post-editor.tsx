"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useState } from "react";
import { DraftDetails } from "@/components/studio/draft-details";
import { CHANNEL_LABELS, CharacterCount, GOAL_LABELS, PostTextArea } from "@/components/studio/form-controls";
import { PostHashtags } from "@/components/studio/hashtag-editor";
import { LearnedFromNote } from "@/components/studio/learned-from-note";
import { PostMediaPlan } from "@/components/studio/media-plan-editor";
import { Button, Card, ErrorNotice } from "@/components/ui/primitives";
import { compactPlayerSize, VideoPlayer } from "@/components/video/video-player";
import { callApi } from "@/lib/client/api-client";
import { reviewPost, submitPost } from "@/lib/client/operations";
import { queryKeys } from "@/lib/client/queries";
import type { BrandRole } from "@/lib/contracts/enums";
import { can } from "@/lib/contracts/permissions";
import { CHANNEL_RULES, captionLimit } from "@/lib/contracts/post-rules";
import type { PostDetailView, PostView } from "@/lib/contracts/posts";
import type { channelRuleIssues, PostContent } from "@/lib/posts/channel-rules";

type RuleCheck = typeof channelRuleIssues;

/**
 * The channel rules check (the server's own, built on the zod contract), loaded once the editor is on
 * screen rather than with the page. Until it is there, Save waits for it.
 */
function useRuleCheck() {
  const [check, setCheck] = useState<RuleCheck | null>(null);
  useEffect(() => {
    let live = true;
    void import("@/lib/posts/channel-rules").then((rules) => {
      if (live) setCheck(() => rules.channelRuleIssues);
    });
    return () => {
      live = false;
    };
  }, []);
  return check;
}

/** Where the draft stands: being saved, edited and not saved, saved by the user, or untouched since generated. */
export function saveState({ post, dirty, saving }: { post: PostView; dirty: boolean; saving: boolean }) {
  if (saving) return { label: "Saving…", tone: "bg-slate-100 text-slate-700" };
  if (dirty) return { label: "Unsaved changes", tone: "bg-amber-50 text-amber-800" };
  if (post.updatedAt !== post.createdAt) {
    return { label: "Saved", tone: "bg-emerald-50 text-emerald-800" };
  }
  return { label: "Not edited yet", tone: "bg-slate-100 text-slate-700" };
}

/** The caption as it is pasted into the channel: the text, then the hashtags. */
export const clipboardText = (content: PostContent) =>
  content.hashtags.length ? `${content.caption}\n\n${content.hashtags.join(" ")}` : content.caption;

function CopyCaption({ content }: { content: PostContent }) {
  const [copied, setCopied] = useState<"yes" | "failed" | null>(null);
  async function copy() {
    try {
      await navigator.clipboard.writeText(clipboardText(content));
      setCopied("yes");
    } catch {
      setCopied("failed");
    }
    setTimeout(() => setCopied(null), 2000);
  }
  return (
    <Button variant="secondary" onClick={copy} aria-live="polite">
      {copied === "yes" ? "Copied" : copied === "failed" ? "Copy failed" : "Copy caption"}
    </Button>
  );
}

const REVIEW_WORDS = {
  submitted: "Submitted for review",
  approved: "Approved",
  changes_requested: "Changes requested",
} as const;

/** Every approval step (GET's reviewHistory): who submitted or approved which version, who asked for changes. */
function ReviewHistory({ post }: { post: PostView & { reviewHistory?: PostDetailView["reviewHistory"] } }) {
  const steps = post.reviewHistory ?? [];
  if (steps.length === 0) return null;
  return (
    <details className="text-slate-700" data-testid="review-history">
      <summary className="cursor-pointer">Review history ({steps.length})</summary>
      <ol className="mt-1 space-y-1">
        {steps.map((step) => (
          <li key={`${step.at}-${step.action}`}>
            {REVIEW_WORDS[step.action]} by {step.byEmail ?? "a deleted account"},{" "}
            {new Date(step.at).toLocaleString()}
            {step.version && (
              <span className="text-slate-500">
                {" "}
                · version {step.version.slice(0, 7)}
                {step.version === post.version ? " (this one)" : ""}
              </span>
            )}
            {step.comment && <span> — “{step.comment}”</span>}
          </li>
        ))}
      </ol>
    </details>
  );
}

/** The approval state: who acted, when, the comment, and the actions the caller's role may take. */
function ReviewPanel({ post, role }: { post: PostView; role?: BrandRole }) {
  const queryClient = useQueryClient();
  const [comment, setComment] = useState("");
  const act = useMutation({
    mutationFn: async (decision: "submit" | "approve" | "request_changes") =>
      decision === "submit"
        ? (await callApi(submitPost, { params: { postId: post.postId }, body: comment ? { comment } : {} }))
            .data
        : (
            await callApi(reviewPost, {
              params: { postId: post.postId },
              // The version on screen: an edit saved since is answered 412 post_changed, never approved unseen.
              body: { decision, version: post.version, ...(comment ? { comment } : {}) },
            })
          ).data,
    onSuccess: (updated) => {
      setComment("");
      queryClient.setQueryData(queryKeys.posts.detail(post.postId), updated);
      void queryClient.invalidateQueries({ queryKey: queryKeys.posts.all });
    },
    // The post changed (412) or the decision failed: show the post as it is now.
    onError: () => void queryClient.invalidateQueries({ queryKey: queryKeys.posts.detail(post.postId) }),
  });
  const maySubmit = role && can(role, "post.submit") && post.status === "draft";
  const mayReview = role && can(role, "post.approve") && post.status === "in_review";
  return (
    <div className="space-y-2 rounded-lg border border-slate-200 p-3 text-sm" data-testid="review-panel">
      <p>
        Status: <strong data-testid="post-status">{post.status.replace("_", " ")}</strong>
        {post.review && (
          <span className="text-slate-600">
            {" "}
            · {REVIEW_WORDS[post.review.action]} {new Date(post.review.at).toLocaleString()}
          </span>
        )}
      </p>
      {post.review?.comment && <p className="text-slate-700">“{post.review.comment}”</p>}
      <ReviewHistory post={post} />
      {(maySubmit || mayReview) && (
        <>
          <label className="block">
            <span className="sr-only">Comment</span>
            <textarea
              value={comment}
              onChange={(event) => setComment(event.target.value)}
              placeholder={
                mayReview ? "What to change (required to request changes)" : "A note for the reviewer"
              }
              className="block w-full rounded-lg border border-slate-300 px-3 py-2"
              rows={2}
            />
          </label>
          <div className="flex flex-wrap gap-2">
            {maySubmit && (
              <Button variant="secondary" onClick={() => act.mutate("submit")} disabled={act.isPending}>
                Submit for review
              </Button>
            )}
            {mayReview && (
              <>
                <Button onClick={() => act.mutate("approve")} disabled={act.isPending}>
                  Approve
                </Button>
                <Button
                  variant="secondary"
                  onClick={() => act.mutate("request_changes")}
                  disabled={act.isPending}
                >
                  Request changes
                </Button>
              </>
            )}
          </div>
        </>
      )}
      {act.error && <ErrorNotice message={act.error.message} />}
    </div>
  );
}

export function PostEditor({
  post,
  content,
  dirty,
  onChange,
  onSave,
  saving,
  saveError,
  onRegenerate,
  regenerating,
  learn,
  onLearnChange,
  planSaved,
  onPost,
  role,
}: {
  /** The caller's role on the post's brand; actions it may not take are disabled (the permission table). */
  role?: BrandRole;
  post: PostView;
  content: PostContent;
  dirty: boolean;
  onChange: (content: PostContent) => void;
  onSave: () => void;
  saving: boolean;
  saveError: string | null;
  onRegenerate: () => void;
  regenerating: boolean;
  /** Whether the next draft learns from the brand's best posts (the request's learnFromResults). */
  learn: boolean;
  onLearnChange: (learn: boolean) => void;
  planSaved: boolean;
  onPost: (post: PostView) => void;
}) {
  const limit = captionLimit(post.channel, content.mediaPlan);
  const check = useRuleCheck();
  const issues = check ? check(post.channel, content) : [];
  const state = saveState({ post, dirty, saving });
  // Until the role is known, nothing is held back: the server checks every action anyway.
  const mayEdit = !role || can(role, "post.update");
  const mayRegenerate = !role || can(role, "post.create");
  const mayMakeVideo = !role || can(role, "video.create");

  return (
    <Card className="space-y-5">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 className="font-semibold">
            {CHANNEL_LABELS[post.channel]} draft · {GOAL_LABELS[post.goal]}
          </h2>
          <p className="text-xs text-slate-600">{post.topic}</p>
        </div>
        <span
          data-testid="save-status"
          role="status"
          className={`rounded-full px-2.5 py-1 text-xs font-medium ${state.tone}`}
        >
          {state.label}
        </span>
      </div>

      {!mayEdit && role && (
        <p role="note" className="rounded-lg bg-slate-100 px-3 py-2 text-sm text-slate-700">
          You are a {role} of this brand: you can read and copy this post; an editor or owner changes it.
        </p>
      )}

      {/* A viewer reads the post: every control that would change it is disabled (the permission table). */}
      <fieldset disabled={!mayEdit} className="min-w-0 space-y-5">
        <div className="space-y-1.5">
          <div className="flex items-center justify-between">
            <label htmlFor="caption" className="text-sm font-medium text-slate-700">
              Caption
            </label>
            <CharacterCount length={content.caption.length} limit={limit} testId="caption-count" />
          </div>
          <PostTextArea
            id="caption"
            rows={10}
            value={content.caption}
            onChange={(event) => onChange({ ...content, caption: event.target.value })}
            className="leading-relaxed"
          />
          {post.channel === "telegram" && (
            <p className="text-xs text-slate-600">
              Telegram allows {CHANNEL_RULES.telegram.captionLimitWithMedia.toLocaleString("en")} characters
              with media, {CHANNEL_RULES.telegram.captionLimit.toLocaleString("en")} without.
            </p>
          )}
        </div>

        <PostHashtags
          hashtags={content.hashtags}
          max={CHANNEL_RULES[post.channel].maxHashtags}
          onChange={(hashtags) => onChange({ ...content, hashtags })}
        />

        <PostMediaPlan
          plan={content.mediaPlan}
          onChange={(mediaPlan) => onChange({ ...content, mediaPlan })}
          postId={post.postId}
          planSaved={planSaved}
          onPost={onPost}
        />
      </fieldset>

      {post.videoUrl && (
        <div className="space-y-1.5">
          <span className="text-sm font-medium text-slate-700">Video</span>
          <VideoPlayer
            url={post.videoUrl}
            job={post.videoJob}
            className={`mx-auto block rounded-lg ${compactPlayerSize(post.videoJob?.aspectRatio)}`}
            testId="post-video"
          />
        </div>
      )}

      {issues.length > 0 && (
        <ul
          role="alert"
          className="space-y-1 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900"
        >
          {issues.map((issue) => (
            <li key={`${issue.path}${issue.message}`}>{issue.message}</li>
          ))}
        </ul>
      )}
      {saveError && <ErrorNotice message={saveError} onRetry={onSave} />}
      <ReviewPanel post={post} role={role} />
      <LearnedFromNote
        learnedFrom={post.learnedFrom}
        learn={learn}
        onLearnChange={onLearnChange}
        disabled={!mayRegenerate}
      />

      <div className="flex flex-wrap items-center gap-3 border-t border-slate-100 pt-4">
        <Button onClick={onSave} disabled={!mayEdit || saving || !dirty || !check || issues.length > 0}>
          {saving ? "Saving…" : "Save"}
        </Button>
        <CopyCaption content={content} />
        <Button variant="secondary" onClick={onRegenerate} disabled={!mayRegenerate || regenerating}>
          {regenerating ? "Writing…" : "Regenerate"}
        </Button>
        {mayMakeVideo && (
          <Link
            href={`/videos/new?postId=${post.postId}`}
            className="ml-auto text-sm font-medium text-brand-700 hover:text-brand-600"
          >
            Make a video →
          </Link>
        )}
      </div>

      <DraftDetails post={post} />
    </Card>
  );
}
