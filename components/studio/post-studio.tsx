"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import dynamic from "next/dynamic";
import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import { type BriefDraft, briefBody, PostBriefForm } from "@/components/studio/brief-form";
import { PostPreview } from "@/components/studio/channel-preview";
import { PostDraftHistory } from "@/components/studio/draft-history";
import { CHANNEL_LABELS } from "@/components/studio/form-controls";
import { LanguageVersions } from "@/components/studio/language-versions";
import { StreamingDraft } from "@/components/studio/streaming-draft";
import { useLeaveGuard } from "@/components/studio/use-leave-guard";
import { NotFoundNotice } from "@/components/ui/not-found-notice";
import { Card, ErrorNotice } from "@/components/ui/primitives";
import { ApiClientError, callApi } from "@/lib/client/api-client";
import { streamDraft } from "@/lib/client/draft-stream";
import { generatePost, updatePost } from "@/lib/client/operations";
import { brandQueries, postChanged, postQueries } from "@/lib/client/queries";
import { ASPECT_RATIOS, type Channel, mediaFormatFor } from "@/lib/contracts/post-rules";
import type { GeneratePostInput, MediaPlan, PartialDraft, PostView } from "@/lib/contracts/posts";
import type { PostContent } from "@/lib/posts/channel-rules";

// Publishing shows once there is a post: its panel loads then, not with the page (first-load JS).
const PublishPanel = dynamic(
  () => import("@/components/publishing/publish-panel").then((panel) => panel.PublishPanel),
  {
    // The panel's own frame, so the preview below moves as little as possible when it arrives.
    loading: () => (
      <Card className="space-y-3 p-4">
        <h2 className="font-semibold">Publish</h2>
        <p role="status" className="text-sm text-slate-600">
          Loading publishing…
        </p>
      </Card>
    ),
  },
);

// The editor shows once there is a draft: it loads then (or as soon as the page names one), not with the page.
const loadEditor = () => import("@/components/studio/post-editor").then((editor) => editor.PostEditor);
const PostEditor = dynamic(loadEditor, {
  loading: () => (
    <Card>
      <p role="status" className="text-sm text-slate-600">
        Loading the editor…
      </p>
    </Card>
  ),
});

const contentOf = (post: PostView): PostContent => ({
  caption: post.caption,
  hashtags: post.hashtags,
  mediaPlan: post.mediaPlan,
});

/** The plan without its images' URLs (their signatures change on every read) and job states, to compare edits with. */
const planShape = (plan: MediaPlan) =>
  JSON.stringify({ ...plan, items: plan.items.map(({ imageUrl: _url, imageJob: _job, ...item }) => item) });

const briefOf = (post: PostView): BriefDraft => ({
  brandId: post.brandId,
  channel: post.channel,
  topic: post.topic,
  goal: post.goal,
  toneOverride: post.toneOverride ?? "",
  assets: post.assets.map((asset) => ({ ...asset, description: asset.description ?? "" })),
});

const sameBrief = (a: PostView, b: PostView) =>
  a.brandId === b.brandId &&
  a.channel === b.channel &&
  a.goal === b.goal &&
  a.topic === b.topic &&
  a.language === b.language;

/**
 * The newest draft of each language in the post's group, the open post standing for its own language, in the
 * brand's language order.
 */
function languageVersions(post: PostView, posts: PostView[], order: string[]) {
  const newest = new Map<string, PostView>([[post.language, post]]);
  for (const item of [...posts].sort((a, b) => b.createdAt.localeCompare(a.createdAt))) {
    if (item.groupId === post.groupId && !newest.has(item.language)) newest.set(item.language, item);
  }
  const rank = (language: string) => (order.includes(language) ? order.indexOf(language) : order.length);
  return [...newest.values()].sort((a, b) => rank(a.language) - rank(b.language));
}

const MAX_SEED = 2 ** 31 - 1;

/** What the preview can show of a draft still being written: the complete parts only. */
function previewOfPartial(draft: PartialDraft | null): PostContent {
  const items: MediaPlan["items"] = [];
  for (const item of draft?.mediaPlan?.items ?? []) {
    const ratio = ASPECT_RATIOS.find((value) => value === item?.aspectRatio);
    if (!item?.description || !item.altText || !ratio || (item.type !== "image" && item.type !== "video"))
      continue;
    items.push({ type: item.type, description: item.description, altText: item.altText, aspectRatio: ratio });
  }
  return {
    caption: draft?.caption ?? "",
    hashtags: (draft?.hashtags ?? []).filter((tag): tag is string => !!tag && tag.length > 1),
    mediaPlan: { format: mediaFormatFor(items), items },
  };
}

type Tab = "edit" | "preview";

function StudioTabs({ tab, onChange }: { tab: Tab; onChange: (tab: Tab) => void }) {
  const tabs: { id: Tab; label: string }[] = [
    { id: "edit", label: "Edit" },
    { id: "preview", label: "Preview & publish" },
  ];
  return (
    <div
      role="tablist"
      aria-label="Studio view"
      className="grid grid-cols-2 gap-1 rounded-lg bg-slate-200 p-1 lg:hidden"
    >
      {tabs.map((item) => (
        <button
          key={item.id}
          type="button"
          role="tab"
          id={`studio-tab-${item.id}`}
          aria-selected={tab === item.id}
          aria-controls={`studio-${item.id}`}
          onClick={() => onChange(item.id)}
          className={`rounded-md px-3 py-1.5 text-sm font-medium ${
            tab === item.id ? "bg-white text-slate-900 shadow-sm" : "text-slate-700"
          }`}
        >
          {item.label}
        </button>
      ))}
    </div>
  );
}

/**
 * The studio: the brief and the editor on the left, the channel preview beside them (sticky), or behind a
 * Preview tab on a phone. Every generated draft is saved by the API, so the history of a brief is its posts;
 * edits stay per draft until saved, so going back to an earlier draft keeps what you typed there.
 */
export function PostStudio({ postId }: { postId?: string }) {
  const queryClient = useQueryClient();
  const [activeId, setActiveId] = useState<string | null>(postId ?? null);
  const [brief, setBrief] = useState<BriefDraft | null>(null);
  const [briefOpen, setBriefOpen] = useState(!postId);
  const [edits, setEdits] = useState<Record<string, PostContent>>({});
  const [tab, setTab] = useState<Tab>("edit");
  const [partial, setPartial] = useState<PartialDraft | null>(null);
  // Drafts learn from the brand's best posts unless the marketer turns it off for the next one.
  const [learn, setLearn] = useState(true);
  const stream = useRef<AbortController | null>(null);

  const brands = useQuery({ ...brandQueries.list(), select: (list) => list.items });
  const active = useQuery({ ...postQueries.detail(activeId ?? ""), enabled: !!activeId });
  // A page that names a post loads the editor beside the post, not after it.
  useEffect(() => {
    if (postId) void loadEditor();
  }, [postId]);
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

  // Leaving the studio mid-stream stops the stream (and so saves nothing).
  useEffect(() => () => stream.current?.abort(), []);
  useLeaveGuard(Object.keys(edits).length > 0);

  function select(id: string) {
    setActiveId(id);
    window.history.replaceState(null, "", `/studio/${id}`);
  }

  const generate = useMutation<PostView, ApiClientError, GeneratePostInput>({
    mutationFn: async (body) => {
      stream.current?.abort();
      const controller = new AbortController();
      stream.current = controller;
      setPartial(null);
      // Several languages at once: the JSON operation writes them all (streaming takes one at a time).
      if (body.languages && body.languages.length > 1) {
        const generated = (await callApi(generatePost, { body, signal: controller.signal })).data;
        for (const version of generated.versions) postChanged(queryClient, version);
        return generated;
      }
      return streamDraft(body, {
        signal: controller.signal,
        onPartial: setPartial,
        onRetry: () => setPartial(null),
      });
    },
    onSuccess: (post) => {
      postChanged(queryClient, post);
      setPartial(null);
      setBriefOpen(false);
      select(post.postId);
    },
    onError: () => setPartial(null),
  });
  function cancel() {
    stream.current?.abort();
    generate.reset();
    setPartial(null);
  }

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
  const versions = post
    ? languageVersions(
        post,
        brandPosts.data ?? [],
        brands.data?.find((item) => item.brandId === post.brandId)?.languages ?? [],
      )
    : [];
  const content = post ? (edits[post.postId] ?? contentOf(post)) : null;
  const streaming = generate.isPending;
  const previewBrandId = streaming ? generate.variables?.brandId : post?.brandId;
  const brandName = brands.data?.find((brand) => brand.brandId === previewBrandId)?.name ?? "Your brand";
  const previewChannel: Channel | undefined = streaming ? generate.variables?.channel : post?.channel;
  const previewContent = streaming ? previewOfPartial(partial) : content;

  // A missing post (or another brand's) leaves nothing to edit or preview: only the notice and the way back.
  if (!streaming && active.error instanceof ApiClientError && active.error.status === 404) {
    return (
      <NotFoundNotice
        message="This post does not exist, or it belongs to a brand you are not in."
        href="/studio"
        linkLabel="Back to the studio"
      />
    );
  }

  function regenerate() {
    if (!post) return;
    const seeds = drafts.map((draft) => draft.generation.seed);
    // Only this language is written again; the group's other languages stay as they are.
    generate.mutate({
      ...briefBody(briefOf(post)),
      languages: [post.language],
      groupId: post.groupId,
      seed: (Math.max(...seeds) + 1) % MAX_SEED,
      ...(learn ? {} : { learnFromResults: false }),
    });
  }

  return (
    <div className="space-y-4">
      <StudioTabs tab={tab} onChange={setTab} />
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,400px)]">
        <div
          id="studio-edit"
          role="tabpanel"
          aria-labelledby="studio-tab-edit"
          className={`min-w-0 space-y-6 ${tab === "edit" ? "" : "hidden lg:block"}`}
        >
          <Card>
            <details open={briefOpen} onToggle={(event) => setBriefOpen(event.currentTarget.open)}>
              <summary className="cursor-pointer">
                <h2 className="inline font-semibold">Brief</h2>
                {!briefOpen && post && (
                  <span className="ml-2 text-sm text-slate-600">
                    {CHANNEL_LABELS[post.channel]} · {post.topic}
                  </span>
                )}
              </summary>
              <div className="mt-4">
                {brands.isPending && <p className="text-sm text-slate-600">Loading your brands…</p>}
                {brands.error && (
                  <ErrorNotice message={brands.error.message} onRetry={() => brands.refetch()} />
                )}
                {brands.data && brief && (
                  <PostBriefForm
                    brief={brief}
                    brands={brands.data}
                    generating={streaming}
                    onGenerate={(values) =>
                      generate.mutate({ ...briefBody(values), ...(learn ? {} : { learnFromResults: false }) })
                    }
                  />
                )}
                {brands.data && !brands.data.length && (
                  <p className="text-sm text-slate-600">
                    You have no brands yet.{" "}
                    <Link href="/brands" className="font-medium text-brand-700 underline">
                      Set one up
                    </Link>{" "}
                    to write posts in its voice.
                  </p>
                )}
              </div>
            </details>
          </Card>

          {!streaming && post && versions.length > 1 && (
            <LanguageVersions
              versions={versions}
              activeId={post.postId}
              unsaved={new Set(Object.keys(edits))}
              role={brands.data?.find((item) => item.brandId === post.brandId)?.role}
              onSelect={select}
            />
          )}

          {post && drafts.length > 1 && (
            <PostDraftHistory
              drafts={drafts}
              activeId={post.postId}
              unsaved={new Set(Object.keys(edits))}
              onSelect={select}
            />
          )}

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
          {streaming && <StreamingDraft draft={partial} onCancel={cancel} />}
          {!streaming && activeId && active.isPending && (
            <Card>
              <p role="status" className="text-sm text-slate-600">
                Loading the draft…
              </p>
            </Card>
          )}
          {!streaming && active.error && (
            <ErrorNotice
              message={active.error.message}
              onRetry={
                active.error instanceof ApiClientError && active.error.retryable
                  ? () => active.refetch()
                  : undefined
              }
            />
          )}
          {!streaming && !activeId && (
            <Card className="py-12 text-center">
              <p className="font-medium text-slate-700">No draft yet</p>
              <p className="mx-auto mt-1 max-w-sm text-sm text-slate-600">
                Write a brief and generate a draft. It appears here for you to edit, with a preview of how the
                channel shows it.
              </p>
            </Card>
          )}
          {!streaming && post && content && (
            <PostEditor
              post={post}
              content={content}
              dirty={!!edits[post.postId]}
              onChange={(next) => setEdits((current) => ({ ...current, [post.postId]: next }))}
              onSave={() => save.mutate({ postId: post.postId, content })}
              saving={save.isPending}
              saveError={save.error?.message ?? null}
              onRegenerate={regenerate}
              regenerating={streaming}
              learn={learn}
              onLearnChange={setLearn}
              planSaved={!edits[post.postId] || planShape(content.mediaPlan) === planShape(post.mediaPlan)}
              onPost={(updated) => {
                postChanged(queryClient, updated);
                // Unsaved caption or hashtag edits stay; the plan takes the new images.
                setEdits((current) =>
                  current[updated.postId]
                    ? {
                        ...current,
                        [updated.postId]: { ...current[updated.postId], mediaPlan: updated.mediaPlan },
                      }
                    : current,
                );
              }}
              role={brands.data?.find((item) => item.brandId === post.brandId)?.role}
            />
          )}
        </div>

        <div
          id="studio-preview"
          role="tabpanel"
          aria-labelledby="studio-tab-preview"
          className={`min-w-0 space-y-4 lg:sticky lg:top-6 ${tab === "preview" ? "" : "hidden lg:block"}`}
        >
          {!streaming && post && (
            <PublishPanel
              postId={post.postId}
              brandId={post.brandId}
              dirty={!!edits[post.postId]}
              role={brands.data?.find((item) => item.brandId === post.brandId)?.role}
            />
          )}
          <Card className="space-y-3 p-4">
            <h2 className="font-semibold">
              {previewChannel ? `Preview on ${CHANNEL_LABELS[previewChannel]}` : "Preview"}
            </h2>
            {previewChannel && previewContent ? (
              <PostPreview
                channel={previewChannel}
                brandName={brandName}
                post={{
                  ...previewContent,
                  videoUrl: streaming ? null : (post?.videoUrl ?? null),
                  videoJob: post?.videoJob,
                }}
              />
            ) : (
              <p className="rounded-lg border border-dashed border-slate-300 p-6 text-center text-sm text-slate-600">
                The post appears here as the channel shows it, as soon as a draft is written.
              </p>
            )}
          </Card>
        </div>
      </div>
    </div>
  );
}
