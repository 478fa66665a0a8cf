"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Button, Card, ErrorNotice, Field, TextInput } from "@/components/ui/primitives";
import { ApiClientError, callApi } from "@/lib/client/api-client";
import { connectChannel, disconnectChannel, updateChannel } from "@/lib/client/operations";
import { nativeLanguageName } from "@/lib/contracts/language-tags";
import { ChannelScheduleEditor } from "./channel-schedule";
import { OAuthConnectButton } from "./oauth-connect-button";
import { channelsQueryKey, PLATFORM_LABELS, useChannels } from "./publishing-basics";

/**
 * Which OAuth platforms this server has a client for, and whether LinkedIn also connects company pages (the
 * page reads the configuration on the server).
 */
export type OAuthAvailability = { linkedin: boolean; linkedinPages: boolean; instagram: boolean };

const LINKEDIN_PAGES_EXPLANATION =
  "LinkedIn asks you to sign in and allow Brand Studio to post for you and for the company pages you administer, then brings you back here: you choose which of you and those pages to connect, and you pick which one a post goes to when you publish it.";

const OAUTH_PLATFORMS = [
  {
    channel: "linkedin",
    variables: ["LINKEDIN_CLIENT_ID", "LINKEDIN_CLIENT_SECRET"],
    explanation:
      "LinkedIn asks you to sign in and allow Brand Studio to post on your behalf, then brings you back here.",
  },
  {
    channel: "instagram",
    variables: ["INSTAGRAM_APP_ID", "INSTAGRAM_APP_SECRET"],
    explanation:
      "Instagram asks you to log in to a professional (business or creator) account and allow Brand Studio to publish, then brings you back here. Posts need an image or the video.",
  },
] as const;

/** A connected account's avatar from the platform (decorative: the name is beside it). */
export function ChannelAvatar({ url, size }: { url: string | null; size: 24 | 32 }) {
  if (!url) return null;
  return (
    // biome-ignore lint/performance/noImgElement: a platform's avatar on another host.
    <img
      src={url}
      alt=""
      width={size}
      height={size}
      className={`${size === 32 ? "h-8 w-8" : "h-6 w-6"} shrink-0 rounded-full object-cover`}
    />
  );
}

/**
 * Brand settings: the brand's connected channels, connect (or reconnect) a Telegram channel with a token or
 * LinkedIn and Instagram through their consent pages, disconnect.
 */
export function ChannelsPanel({
  brandId,
  oauth,
  languages = [],
}: {
  brandId: string;
  oauth: OAuthAvailability;
  /** The brand's languages: with more than one, each channel picks the one it speaks. */
  languages?: string[];
}) {
  const queryClient = useQueryClient();
  const channels = useChannels(brandId);
  const setLanguage = useMutation({
    mutationFn: async ({ channelId, language }: { channelId: string; language: string }) =>
      (await callApi(updateChannel, { params: { channelId }, body: { language } })).data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: channelsQueryKey(brandId) }),
  });
  const [botToken, setBotToken] = useState("");
  const [chatId, setChatId] = useState("");
  const connect = useMutation({
    mutationFn: async () =>
      (await callApi(connectChannel, { body: { brandId, channel: "telegram", botToken, chatId } })).data,
    onSuccess: () => {
      setBotToken("");
      void queryClient.invalidateQueries({ queryKey: channelsQueryKey(brandId) });
    },
  });
  const disconnect = useMutation({
    mutationFn: async (channelId: string) => callApi(disconnectChannel, { params: { channelId } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: channelsQueryKey(brandId) }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    connect.mutate();
  };
  const error = connect.error instanceof ApiClientError ? connect.error : null;
  const check = (error?.details as { check?: string } | undefined)?.check;

  return (
    <section data-testid="channels-panel" aria-label="Channels">
      <Card className="space-y-4">
        <div>
          <h2 className="font-semibold">Channels</h2>
          <p className="text-sm text-slate-600">
            Where this brand's posts are published. Owners connect them.
          </p>
        </div>
        {channels.isPending && (
          // The empty state's box, so that the links below do not move when a brand has no channel.
          <p
            role="status"
            className="animate-pulse rounded-lg border border-dashed border-slate-200 p-4 text-center text-sm text-slate-500"
          >
            Loading channels…
          </p>
        )}
        {channels.error && (
          <ErrorNotice message={channels.error.message} onRetry={() => channels.refetch()} />
        )}
        {setLanguage.error && <ErrorNotice message={setLanguage.error.message} />}
        {channels.data && channels.data.length === 0 && (
          <p className="rounded-lg border border-dashed border-slate-300 p-4 text-center text-sm text-slate-600">
            No channel connected yet.
          </p>
        )}
        {channels.data && channels.data.length > 0 && (
          <ul className="divide-y divide-slate-100" aria-label="Connected channels">
            {channels.data.map((channel) => (
              <li key={channel.channelId} className="flex flex-wrap items-start justify-between gap-2 py-2">
                <div className="flex min-w-0 items-start gap-2">
                  <ChannelAvatar url={channel.avatarUrl} size={32} />
                  <div className="min-w-0">
                    <p className="font-medium text-slate-800">
                      {channel.accountName}{" "}
                      <span className="text-sm font-normal text-slate-500">
                        {PLATFORM_LABELS[channel.channel]}
                        {channel.accountHandle ? ` · ${channel.accountHandle}` : ""}
                      </span>
                    </p>
                    {languages.length > 1 && (
                      <label className="mt-1 flex items-center gap-2 text-sm text-slate-600">
                        Language
                        <select
                          className="rounded-md border border-slate-300 bg-white px-2 py-0.5 text-sm"
                          value={channel.language}
                          disabled={setLanguage.isPending}
                          onChange={(event) =>
                            setLanguage.mutate({ channelId: channel.channelId, language: event.target.value })
                          }
                        >
                          {[...new Set([...languages, channel.language])].map((tag) => (
                            <option key={tag} value={tag}>
                              {nativeLanguageName(tag)} ({tag})
                            </option>
                          ))}
                        </select>
                      </label>
                    )}
                    {channel.status === "needs_reconnect" ? (
                      <p className="text-sm text-red-700">
                        Needs reconnecting: {channel.statusMessage}{" "}
                        {channel.channel === "telegram" ? (
                          "Connect it again below with a new token."
                        ) : (
                          <OAuthConnectButton
                            channel={channel.channel}
                            brandId={brandId}
                            label={`Reconnect ${PLATFORM_LABELS[channel.channel]}`}
                            variant="link"
                          />
                        )}
                      </p>
                    ) : (
                      channel.statusMessage && (
                        <p className="text-xs text-slate-500">{channel.statusMessage}</p>
                      )
                    )}
                    {channel.resultsReconnect &&
                      channel.status !== "needs_reconnect" &&
                      channel.channel !== "telegram" && (
                        <div
                          role="note"
                          data-testid="results-reconnect"
                          className="mt-2 space-y-2 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900"
                        >
                          <p>
                            <strong>Reconnect to allow results.</strong> {PLATFORM_LABELS[channel.channel]}{" "}
                            has not allowed Brand Studio to read this account's post results (views, reach,
                            interactions). Publishing keeps working; reconnect once and allow it.
                          </p>
                          <OAuthConnectButton
                            channel={channel.channel}
                            brandId={brandId}
                            label={`Reconnect ${PLATFORM_LABELS[channel.channel]}`}
                          />
                        </div>
                      )}
                    <details className="mt-1 group">
                      <summary className="cursor-pointer text-sm font-medium text-brand-700">
                        Posting schedule
                      </summary>
                      <div className="pt-2">
                        <ChannelScheduleEditor
                          channelId={channel.channelId}
                          accountName={channel.accountName}
                        />
                      </div>
                    </details>
                  </div>
                </div>
                <Button
                  variant="danger"
                  className="px-3 py-1"
                  disabled={disconnect.isPending}
                  onClick={() => {
                    if (
                      window.confirm(`Disconnect ${channel.accountName}? Its scheduled posts are canceled.`)
                    )
                      disconnect.mutate(channel.channelId);
                  }}
                >
                  Disconnect
                </Button>
              </li>
            ))}
          </ul>
        )}
        {OAUTH_PLATFORMS.map((platform) => (
          <div key={platform.channel} className="space-y-2 border-t border-slate-100 pt-4">
            <h3 className="text-sm font-semibold text-slate-700">
              Connect {PLATFORM_LABELS[platform.channel]}
            </h3>
            {oauth[platform.channel] ? (
              <>
                <p className="text-sm text-slate-600">
                  {platform.channel === "linkedin" && oauth.linkedinPages
                    ? LINKEDIN_PAGES_EXPLANATION
                    : platform.explanation}
                </p>
                <OAuthConnectButton
                  channel={platform.channel}
                  brandId={brandId}
                  label={`Connect ${PLATFORM_LABELS[platform.channel]}`}
                />
              </>
            ) : (
              <p className="text-sm text-slate-600">
                Not available on this server: an administrator sets <code>{platform.variables[0]}</code> and{" "}
                <code>{platform.variables[1]}</code> to turn it on.
              </p>
            )}
          </div>
        ))}
        <form
          onSubmit={submit}
          className="space-y-3 border-t border-slate-100 pt-4"
          aria-label="Connect Telegram"
        >
          <h3 className="text-sm font-semibold text-slate-700">Connect a Telegram channel</h3>
          <Field
            label="Bot token"
            hint="From @BotFather. Add the bot to the channel as an administrator that may post."
            error={check === "token" ? error?.message : undefined}
          >
            <TextInput
              type="password"
              autoComplete="off"
              value={botToken}
              onChange={(event) => setBotToken(event.target.value)}
              required
            />
          </Field>
          <Field
            label="Channel @username or id"
            hint="A private channel's numeric id starts with -100."
            error={check === "chat" || check === "admin" ? error?.message : undefined}
          >
            <TextInput value={chatId} onChange={(event) => setChatId(event.target.value)} required />
          </Field>
          {error && !["token", "chat", "admin"].includes(check ?? "") && (
            <ErrorNotice message={error.message} />
          )}
          {connect.isSuccess && (
            <p role="status" className="text-sm text-emerald-700">
              Connected {connect.data.accountName}.
            </p>
          )}
          <Button type="submit" disabled={connect.isPending}>
            {connect.isPending ? "Checking with Telegram…" : "Connect Telegram"}
          </Button>
        </form>
      </Card>
    </section>
  );
}
