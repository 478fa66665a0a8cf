"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import { Button, Card, ErrorNotice, Field, TextInput } from "@/components/ui/primitives";
import { callApi } from "@/lib/client/api-client";
import { createPublication, getPublication, listPublications } from "@/lib/client/operations";
import { brandQueries, queryKeys } from "@/lib/client/queries";
import type { BrandRole, PublicationPlacement } from "@/lib/contracts/enums";
import { can } from "@/lib/contracts/permissions";
import type { ChannelConnectionView, PublicationView } from "@/lib/contracts/publishing";
import { PUBLICATION_WINDOW_MAX_DAYS } from "@/lib/contracts/publishing-rules";
import { nextBestTime } from "@/lib/contracts/slot-times";
import { formatInZone, fromZonedInputValue } from "@/lib/contracts/time-zone";
import { bestTimesSource, useChannelSchedule } from "./channel-schedule";
import { ChannelAvatar } from "./channels-panel";
import { MissingImagesNotice } from "./missing-images-notice";
import { OAuthConnectButton } from "./oauth-connect-button";
import {
  PLATFORM_LABELS,
  publicationChannelLabel,
  STATUS_STYLES,
  scheduleQueryKey,
  useChannels,
} from "./publishing-basics";
import { ScheduledActions } from "./scheduled-actions";
import { UnknownOutcomeActions } from "./unknown-outcome-actions";

const FINAL = new Set(["published", "failed", "canceled"]);

export function PublicationStatus({ publication }: { publication: PublicationView }) {
  return (
    <span
      data-testid="publication-status"
      data-status={publication.status}
      className={`rounded-full px-2 py-0.5 text-xs font-medium ring-1 ${STATUS_STYLES[publication.status]}`}
    >
      {publication.status}
    </span>
  );
}

/** The brand's time zone (UTC until the brand has loaded): publication times show and are typed in it. */
export function useBrandTimeZone(brandId: string) {
  return useQuery({ ...brandQueries.detail(brandId), select: (brand) => brand.timeZone }).data ?? "UTC";
}

/**
 * The post's own status follows its publications (scheduled → published): when one settles, or is first
 * seen settled (a worker may publish before the first poll), the post is read again, so the studio's status
 * does not stay "scheduled" until a reload.
 */
function useSettledPostRefresh(publication: PublicationView | undefined) {
  const queryClient = useQueryClient();
  const seen = useRef<string | undefined>(undefined);
  const status = publication?.status;
  const postId = publication?.postId;
  useEffect(() => {
    const before = seen.current;
    seen.current = status;
    if (postId && status && before !== status && FINAL.has(status))
      void queryClient.invalidateQueries({ queryKey: queryKeys.posts.detail(postId) });
  }, [queryClient, postId, status]);
}

function PublicationRow({
  publicationId,
  channelLabel,
  timeZone,
  mayChange,
}: {
  publicationId: string;
  /** Where it goes: the connection's name and platform. */
  channelLabel: string;
  timeZone: string;
  /** An owner may change the time of a scheduled publication or cancel it. */
  mayChange: boolean;
}) {
  const publication = useQuery({
    queryKey: queryKeys.publications.detail(publicationId),
    queryFn: async ({ signal }) =>
      (await callApi(getPublication, { params: { publicationId }, signal })).data,
    refetchInterval: (query) => (query.state.data && FINAL.has(query.state.data.status) ? false : 1500),
  });
  useSettledPostRefresh(publication.data);
  if (!publication.data) return <li className="h-6 animate-pulse rounded bg-slate-100" />;
  const p = publication.data;
  return (
    <li className="space-y-1 text-sm" data-testid="publication-row">
      <div className="flex flex-wrap items-center gap-2">
        <PublicationStatus publication={p} />
        <span className="font-medium text-slate-800">{channelLabel}</span>
        {p.placement === "story" && (
          <span className="rounded bg-fuchsia-50 px-1.5 py-0.5 text-xs font-medium text-fuchsia-800 ring-1 ring-fuchsia-200">
            Story
          </span>
        )}
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <span className="text-slate-600" data-testid="publication-time">
          {formatInZone(p.publishAt, timeZone)}
        </span>
        {p.permalink && (
          <a
            href={p.permalink}
            target="_blank"
            rel="noreferrer"
            className="font-medium text-brand-700 underline"
          >
            {p.placement === "story" ? "View story" : "View post"}
          </a>
        )}
      </div>
      {p.error && <p className="text-red-700">{p.error.message}</p>}
      {p.status === "held" && (
        <p className="text-slate-700" data-testid="publication-held">
          Held: the post was edited after its approval, so this waits for an owner to approve the new version.
        </p>
      )}
      {mayChange && (p.status === "scheduled" || p.status === "held") && (
        <ScheduledActions publication={p} channelLabel={channelLabel} timeZone={timeZone} />
      )}
      {mayChange && p.error?.code === "publish_outcome_unknown" && <UnknownOutcomeActions publication={p} />}
    </li>
  );
}

const SUMMARY_ORDER: PublicationView["status"][] = ["published", "publishing", "scheduled", "failed"];

/**
 * Where the post stands across its publications, one phrase per state and platform: "published on LinkedIn ·
 * scheduled on Telegram Fri 28 Nov, 16:00 (Europe/Berlin)". Canceled ones are left out; empty when none is left.
 */
export function publicationSummary(publications: PublicationView[], timeZone: string) {
  const phrases: string[] = [];
  let timed = false;
  for (const status of SUMMARY_ORDER) {
    const byPlatform = new Map<string, PublicationView[]>();
    for (const item of publications.filter((p) => p.status === status)) {
      const platform = `${PLATFORM_LABELS[item.channel]}${item.placement === "story" ? " (story)" : ""}`;
      byPlatform.set(platform, [...(byPlatform.get(platform) ?? []), item]);
    }
    for (const [platform, items] of byPlatform) {
      const times =
        status === "scheduled"
          ? ` ${items
              .map((item) => item.publishAt)
              .sort()
              .map((at) => formatInZone(at, timeZone, { zone: false }))
              .join(" and ")}`
          : "";
      timed ||= times !== "";
      phrases.push(`${status} on ${platform}${times}`);
    }
  }
  const text = phrases.join(" · ");
  return text && timed ? `${text} (${timeZone})` : text;
}

/** The studio's Publish panel: a connected channel, now or at a time; the post's publications below. */
export function PublishPanel({
  postId,
  brandId,
  dirty,
  role,
}: {
  postId: string;
  brandId: string;
  dirty: boolean;
  /** The caller's role on the brand; only an owner publishes or schedules (the permission table). */
  role?: BrandRole;
}) {
  const mayPublish = !role || can(role, "publication.create");
  const mayCancel = !role || can(role, "publication.cancel");
  const queryClient = useQueryClient();
  const channels = useChannels(brandId);
  const [channelId, setChannelId] = useState("");
  const [when, setWhen] = useState<"now" | "queue" | "best" | "later">("now");
  const [placement, setPlacement] = useState<PublicationPlacement>("feed");
  const [at, setAt] = useState("");
  const timeZone = useBrandTimeZone(brandId);
  const history = useQuery({
    queryKey: queryKeys.publications.post(postId),
    queryFn: async ({ signal }) => {
      // The widest window the list answers, centred on now (one clock reading: two could be 1 ms too wide).
      const now = Date.now();
      const half = (PUBLICATION_WINDOW_MAX_DAYS / 2) * 86_400_000;
      const query = {
        brandId,
        postId,
        from: new Date(now - half).toISOString(),
        to: new Date(now + half).toISOString(),
      };
      return (await callApi(listPublications, { query, signal })).data;
    },
    select: (data) => data.items,
    // The status line follows a scheduled or running publication until it settles.
    refetchInterval: (query) =>
      query.state.data?.items.some((item) => !FINAL.has(item.status)) ? 3000 : false,
  });
  const publish = useMutation({
    mutationFn: async () => {
      const chosen = channelId || active[0]?.channelId || "";
      // The time typed is the brand's wall clock, whatever the browser's zone.
      const publishAt =
        when === "later" && at
          ? fromZonedInputValue(at, timeZone)?.toISOString()
          : when === "best"
            ? bestAt?.toISOString()
            : undefined;
      const body = {
        channelId: chosen,
        publishAt,
        slot: when === "queue" ? ("next" as const) : undefined,
        placement: asStory ? ("story" as const) : ("feed" as const),
      };
      return (await callApi(createPublication, { params: { postId }, body })).data;
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.publications.all });
      void queryClient.invalidateQueries({ queryKey: queryKeys.posts.all });
      void queryClient.invalidateQueries({ queryKey: scheduleQueryKey(selected) });
    },
  });
  const active = channels.data?.filter((channel) => channel.status === "active") ?? [];
  const selected = channelId || active[0]?.channelId || "";
  const selectedChannel = active.find((channel) => channel.channelId === selected);
  const selectedName = selectedChannel?.accountName;
  const schedule = useChannelSchedule(selectedChannel?.channelId);
  // The soonest of the channel's three best hours: the brand's own once measured, else the platform's.
  const bestAt = schedule.data
    ? nextBestTime(schedule.data.bestTimes.times.slice(0, 3), timeZone, new Date())
    : null;
  // A story is an Instagram placement; another channel always publishes to its feed.
  const asStory = selectedChannel?.channel === "instagram" && placement === "story";
  const refused = channels.data?.filter((channel) => channel.status === "needs_reconnect") ?? [];
  // This post already went (or is set to go) to the chosen channel: a second send asks first.
  const earlier = (history.data ?? [])
    .filter(
      (item) =>
        item.channelId === selected &&
        item.placement === (asStory ? "story" : "feed") &&
        (item.status === "published" || item.status === "publishing" || item.status === "scheduled"),
    )
    .sort((a, b) => Number(b.status === "published") - Number(a.status === "published"));
  const [confirming, setConfirming] = useState(false);
  const summary = publicationSummary(history.data ?? [], timeZone);

  return (
    <section aria-labelledby="publish-title" data-testid="publish-panel">
      <Card className="space-y-3 p-4">
        <h2 id="publish-title" className="font-semibold">
          Publish
        </h2>
        {summary && (
          <p className="text-sm text-slate-700" data-testid="publication-summary">
            {summary[0].toUpperCase() + summary.slice(1)}
          </p>
        )}
        {channels.isPending && <div className="h-10 animate-pulse rounded bg-slate-100" />}
        {channels.error && (
          <ErrorNotice message={channels.error.message} onRetry={() => channels.refetch()} />
        )}
        {!mayPublish && (
          <p role="note" className="text-sm text-slate-600" data-testid="publish-not-allowed">
            You are {role === "editor" ? "an" : "a"} {role} of this brand: an owner publishes and schedules
            posts.
          </p>
        )}
        {mayPublish && channels.data && active.length === 0 && (
          <p className="text-sm text-slate-600">
            No channel is connected.{" "}
            <Link href={`/brands/${brandId}`} className="font-medium text-brand-700 underline">
              Connect one in brand settings
            </Link>
            .
          </p>
        )}
        {mayPublish && refused.length > 0 && (
          <ul className="space-y-1 text-sm text-red-700" aria-label="Channels that need reconnecting">
            {refused.map((channel) => (
              <li key={channel.channelId}>
                {channel.accountName} ({PLATFORM_LABELS[channel.channel]}) needs reconnecting:{" "}
                {channel.channel === "telegram" ? (
                  <Link href={`/brands/${brandId}`} className="font-medium underline">
                    connect it again in brand settings
                  </Link>
                ) : (
                  <OAuthConnectButton
                    channel={channel.channel}
                    brandId={brandId}
                    label={`Reconnect ${PLATFORM_LABELS[channel.channel]}`}
                    variant="link"
                  />
                )}
              </li>
            ))}
          </ul>
        )}
        {mayPublish && active.length > 0 && <MissingImagesNotice postId={postId} />}
        {mayPublish && active.length > 0 && (
          <form
            className="space-y-3"
            onSubmit={(event) => {
              event.preventDefault();
              if (earlier.length > 0 && !confirming) return setConfirming(true);
              setConfirming(false);
              publish.mutate();
            }}
          >
            <Field label="Channel">
              <select
                value={selected}
                onChange={(event) => {
                  setChannelId(event.target.value);
                  setConfirming(false);
                }}
                className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm"
              >
                {active.map((channel) => (
                  <option key={channel.channelId} value={channel.channelId}>
                    {channel.accountName} ({PLATFORM_LABELS[channel.channel]})
                  </option>
                ))}
              </select>
            </Field>
            {selectedChannel && <ChannelBadge channel={selectedChannel} story={asStory} />}
            {selectedChannel?.channel === "instagram" && (
              <RadioChoice
                legend="Where on Instagram"
                name="placement"
                value={placement}
                options={[
                  ["feed", "Feed post"],
                  ["story", "Story"],
                ]}
                onChange={setPlacement}
              />
            )}
            <RadioChoice
              legend="When"
              name="when"
              value={when}
              options={[
                ["now", "Now"],
                ["queue", "Add to queue"],
                ["best", "Next best time"],
                ["later", "At a time"],
              ]}
              onChange={(value) => {
                publish.reset();
                setWhen(value);
              }}
            />
            {when === "queue" && (
              <p className="text-sm text-slate-600" data-testid="publish-queue-hint">
                {schedule.isPending ? (
                  "Reading the channel's schedule…"
                ) : schedule.error ? (
                  `The channel's schedule could not be read: ${schedule.error.message}`
                ) : schedule.data?.nextSlot ? (
                  <>Next free slot: {formatInZone(schedule.data.nextSlot, timeZone)}.</>
                ) : (
                  <>
                    {selectedName} has no posting schedule yet.{" "}
                    <Link href={`/brands/${brandId}`} className="font-medium text-brand-700 underline">
                      Set one in brand settings
                    </Link>
                    .
                  </>
                )}
              </p>
            )}
            {when === "best" && (
              <p className="text-sm text-slate-600" data-testid="publish-best-hint">
                {bestAt && schedule.data ? (
                  <>
                    {formatInZone(bestAt, timeZone)}. {bestTimesSource(schedule.data.bestTimes)}
                  </>
                ) : schedule.error ? (
                  `The channel's best times could not be read: ${schedule.error.message}`
                ) : (
                  "Reading the channel's best times…"
                )}
              </p>
            )}
            {when === "later" && (
              <Field label={`Publish at (${timeZone})`} hint="In the brand's time zone.">
                <TextInput
                  type="datetime-local"
                  value={at}
                  onChange={(event) => setAt(event.target.value)}
                  required
                />
              </Field>
            )}
            {dirty && (
              <p className="text-xs text-amber-800">Save your edits first: the saved post is published.</p>
            )}
            {publish.error && <ErrorNotice message={publish.error.message} />}
            {publish.data && publish.data.status === "scheduled" && when !== "now" && (
              <p role="status" className="text-sm text-emerald-700" data-testid="publish-scheduled-at">
                {when === "queue" ? "Added to the queue" : "Scheduled"} for{" "}
                {formatInZone(publish.data.publishAt, timeZone)}.
              </p>
            )}
            {confirming && earlier.length > 0 ? (
              <div
                data-testid="publish-again"
                className="space-y-2 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
              >
                <p role="alert">
                  This post{" "}
                  {earlier[0].status === "published" ? "was already published" : "is already set to go"} to{" "}
                  {selectedName} on {formatInZone(earlier[0].publishAt, timeZone)}. Send it there a
                  {earlier.length > 1 ? "nother" : " second"} time?
                </p>
                <div className="flex flex-wrap gap-2">
                  <Button type="submit" disabled={publish.isPending || dirty}>
                    {when === "now" ? "Publish again" : when === "queue" ? "Queue again" : "Schedule again"}
                  </Button>
                  <Button variant="secondary" onClick={() => setConfirming(false)}>
                    Don't send
                  </Button>
                </div>
              </div>
            ) : (
              <Button
                type="submit"
                disabled={
                  publish.isPending ||
                  dirty ||
                  (when === "queue" && !schedule.data?.nextSlot) ||
                  (when === "best" && !bestAt)
                }
              >
                {publish.isPending
                  ? "Sending…"
                  : `${when === "now" ? "Publish" : when === "queue" ? "Add to queue" : "Schedule"} ${asStory ? "as a story " : ""}${when === "now" ? "to" : "for"} ${selectedName ?? "channel"}${earlier.length > 0 ? " again…" : when === "now" ? " now" : when === "best" ? " at the best time" : ""}`}
              </Button>
            )}
          </form>
        )}
        {history.data && history.data.length > 0 && (
          <ul className="space-y-2 border-t border-slate-100 pt-3" aria-label="Publications of this post">
            {history.data.map((publication) => (
              <PublicationRow
                key={publication.publicationId}
                publicationId={publication.publicationId}
                channelLabel={publicationChannelLabel(channels.data, publication)}
                timeZone={timeZone}
                mayChange={mayCancel}
              />
            ))}
          </ul>
        )}
      </Card>
    </section>
  );
}

/** The chosen channel as the platform shows it: avatar, name, handle, and what it needs. */
function ChannelBadge({ channel, story }: { channel: ChannelConnectionView; story: boolean }) {
  return (
    <div className="flex items-center gap-2 text-sm text-slate-600" data-testid="publish-channel">
      <ChannelAvatar url={channel.avatarUrl} size={24} />
      <span className="min-w-0">
        <span className="block truncate">
          {channel.accountName}
          {channel.accountHandle ? ` · ${channel.accountHandle}` : ""}
        </span>
        {channel.channel === "instagram" && (
          <span className="block text-xs text-slate-500">
            {story
              ? "A story shows the video, or else the first image, for 24 hours; the caption is not sent."
              : "Needs an image or the video."}
          </span>
        )}
      </span>
    </div>
  );
}

/** A row of radio buttons: one choice among a few, each with its label. */
function RadioChoice<T extends string>({
  legend,
  name,
  value,
  options,
  onChange,
}: {
  legend: string;
  name: string;
  value: T;
  options: [T, string][];
  onChange: (value: T) => void;
}) {
  return (
    <fieldset className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
      <legend className="sr-only">{legend}</legend>
      {options.map(([option, label]) => (
        <label key={option} className="flex items-center gap-1">
          <input type="radio" name={name} checked={value === option} onChange={() => onChange(option)} />{" "}
          {label}
        </label>
      ))}
    </fieldset>
  );
}
