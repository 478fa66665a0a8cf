"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useState } from "react";
import { type BriefDraft, briefBody, PostBriefForm } from "@/components/studio/brief-form";
import { PostDraftHistory } from "@/components/studio/draft-history";
import { PostEditor } from "@/components/studio/post-editor";
import { Card, ErrorNotice } from "@/components/ui/primitives";
import { ApiClientError, callApi } from "@/lib/client/api-client";
import { brandQueries, postChanged, postQueries } from "@/lib/client/queries";
import { type GeneratePostInput, generatePost, type PostView, updatePost } from "@/lib/contracts/posts";
import type { PostContent } from "@/lib/posts/channel-rules";

const contentOf = (post: PostView): PostContent => ({
  caption: post.caption,
  hashtags: post.hashtags,
  mediaPlan: post.mediaPlan,
});

const briefOf = (post: PostView): BriefDraft => ({
  brandId: post.brandId,
  channel: post.channel,
  topic: post.topic,
  goal: post.goal,
  toneOverride: post.toneOverride ?? "",
  assets: post.assets.map((asset) => ({ ...asset, description: asset.description ?? "" })),
});

const sameBrief = (a: PostView, b: PostView) =>
  a.brandId === b.brandId && a.channel === b.channel && a.goal === b.goal && a.topic === b.topic;

const MAX_SEED = 2 ** 31 - 1;

function GenerationState() {
  return (
    <Card className="space-y-4" aria-busy="true">
      <div role="status" className="flex items-center gap-3 text-sm font-medium text-slate-700">
        <span className="size-4 animate-spin rounded-full border-2 border-brand-600 border-t-transparent" />
        Writing your draft in the brand's voice…
      </div>
      <div className="space-y-2">
        {[92, 80, 86, 60, 72].map((width) => (
          <div
            key={width}
            className="h-3 animate-pulse rounded bg-slate-100"
            style={{ width: `${width}%` }}
          />
        ))}
      </div>
    </Card>
  );
}

/**
 * The studio: a brief on the left, the draft on the right. Every generated draft is saved by the API, so
 * the history of a brief is simply its posts; edits stay per draft until saved, so going back to an
 * earlier draft keeps what you typed there.
 */
export function PostStudio({ postId }: { postId?: string }) {
  const queryClient = useQueryClient();
  const [activeId, setActiveId] = useState<string | null>(postId ?? null);
  const [brief, setBrief] = useState<BriefDraft | null>(null);
  const [edits, setEdits] = useState<Record<string, PostContent>>({});

  const brands = useQuery({ ...brandQueries.list(), select: (list) => list.items });
  const active = useQuery({ ...postQueries.detail(activeId ?? ""), enabled: !!activeId });
  const brandPosts = useQuery({
    ...postQueries.list(active.data?.brandId ?? ""),
    enabled: !!active.data,
    select: (page) => page.items,
  });

  useEffect(() => {
    if (brief) return;
    if (active.data) setBrief(briefOf(active.data));
    else if ((!activeId || active.error) && brands.data?.length) {
      setBrief({
        brandId: brands.data[0].brandId,
        channel: "linkedin",
        topic: "",
        goal: "awareness",
        toneOverride: "",
        assets: [],
      });
    }
  }, [brief, active.data, active.error, activeId, brands.data]);

  function select(id: string) {
    setActiveId(id);
    window.history.replaceState(null, "", `/studio/${id}`);
  }

  const generate = useMutation<PostView, ApiClientError, GeneratePostInput>({
    mutationFn: async (body) => (await callApi(generatePost, { body })).data,
    onSuccess: (post) => {
      postChanged(queryClient, post);
      select(post.postId);
    },
  });
  const save = useMutation<PostView, ApiClientError, { postId: string; content: PostContent }>({
    mutationFn: async ({ postId: id, content }) =>
      (await callApi(updatePost, { params: { postId: id }, body: content })).data,
    onSuccess: (post) => {
      postChanged(queryClient, post);
      setEdits(({ [post.postId]: _, ...rest }) => rest);
    },
  });

  const post = active.data;
  const drafts = post
    ? [
        post,
        ...(brandPosts.data ?? []).filter((item) => item.postId !== post.postId && sameBrief(item, post)),
      ].sort((a, b) => b.createdAt.localeCompare(a.createdAt))
    : [];
  const content = post ? (edits[post.postId] ?? contentOf(post)) : null;
  const brandName = brands.data?.find((brand) => brand.brandId === post?.brandId)?.name ?? "Your brand";

  function regenerate() {
    if (!post) return;
    const seeds = drafts.map((draft) => draft.generation.seed);
    generate.mutate({ ...briefBody(briefOf(post)), seed: (Math.max(...seeds) + 1) % MAX_SEED });
  }

  return (
    <div className="grid items-start gap-6 lg:grid-cols-[340px_1fr]">
      <div className="space-y-6">
        <Card>
          <h2 className="mb-4 font-semibold">Brief</h2>
          {brands.isPending && <p className="text-sm text-slate-500">Loading your brands…</p>}
          {brands.error && <ErrorNotice message={brands.error.message} onRetry={() => brands.refetch()} />}
          {brands.data && brief && (
            <PostBriefForm
              brief={brief}
              brands={brands.data}
              onChange={setBrief}
              generating={generate.isPending}
              onGenerate={() => generate.mutate(briefBody(brief))}
            />
          )}
          {brands.data && !brands.data.length && (
            <p className="text-sm text-slate-600">
              You have no brands yet.{" "}
              <Link href="/brands" className="font-medium text-brand-600 hover:underline">
                Set one up
              </Link>{" "}
              to write posts in its voice.
            </p>
          )}
        </Card>
        {post && drafts.length > 1 && (
          <PostDraftHistory
            drafts={drafts}
            activeId={post.postId}
            unsaved={new Set(Object.keys(edits))}
            onSelect={select}
          />
        )}
      </div>

      <div className="min-w-0 space-y-4">
        {generate.error && (
          <ErrorNotice
            message={generate.error.message}
            onRetry={
              generate.error.retryable && generate.variables
                ? () => generate.mutate(generate.variables)
                : undefined
            }
          />
        )}
        {generate.isPending && <GenerationState />}
        {!generate.isPending && activeId && active.isPending && (
          <Card>
            <p role="status" className="text-sm text-slate-500">
              Loading the draft…
            </p>
          </Card>
        )}
        {!generate.isPending && active.error && (
          <ErrorNotice
            message={active.error.message}
            onRetry={
              active.error instanceof ApiClientError && active.error.retryable
                ? () => active.refetch()
                : undefined
            }
          />
        )}
        {!generate.isPending && !activeId && (
          <Card className="py-16 text-center">
            <p className="font-medium text-slate-700">No draft yet</p>
            <p className="mx-auto mt-1 max-w-sm text-sm text-slate-500">
              Write a brief and generate a draft. It appears here for you to edit, preview and save.
            </p>
          </Card>
        )}
        {!generate.isPending && post && content && (
          <PostEditor
            post={post}
            content={content}
            brandName={brandName}
            dirty={!!edits[post.postId]}
            onChange={(next) => setEdits((current) => ({ ...current, [post.postId]: next }))}
            onSave={() => save.mutate({ postId: post.postId, content })}
            saving={save.isPending}
            saveError={save.error?.message ?? null}
            onRegenerate={regenerate}
            regenerating={generate.isPending}
          />
        )}
      </div>
    </div>
  );
}
