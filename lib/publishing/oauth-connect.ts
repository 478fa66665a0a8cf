import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { brands, channelConnections, channelMetricState } from "@/db/schema";
import { recordActivity } from "@/lib/activity/record-activity";
import type { Principal } from "@/lib/auth/authenticate";
import { getAuthSecret } from "@/lib/auth/secret";
import { requireBrandPermission } from "@/lib/brands/brand-access";
import { ApiError, notFound } from "@/lib/errors/api-error";
import { newId } from "@/lib/ids";
import { log } from "@/lib/log";
import { encryptSecret } from "@/lib/security/encrypt-secret";
import { keepChannelAvatar, removeChannelAvatar } from "./channel-avatar";
import type { OAuthCredentials } from "./channels";
import { PLATFORM_RETRY_AFTER_SECONDS } from "./connect-channel";
import { signOAuthState, verifyOAuthState } from "./oauth-state";
import { PlatformError } from "./platform-error";
import {
  exchangeInstagramCode,
  INSTAGRAM_INSIGHTS_SCOPE,
  instagramAccount,
  instagramAuthorizeUrl,
  instagramConfigured,
  longLivedInstagramToken,
} from "./platforms/instagram/client";
import {
  exchangeLinkedInCode,
  type LinkedInTokens,
  linkedinAuthorizeUrl,
  linkedinConfigured,
  linkedinPages,
  linkedinPagesEnabled,
  linkedinUserInfo,
} from "./platforms/linkedin/client";

/** The platforms that connect through OAuth. */
export const OAUTH_CHANNELS = ["linkedin", "instagram"] as const;
export type OAuthChannel = (typeof OAUTH_CHANNELS)[number];

export type ConnectedAccount = {
  tokens: LinkedInTokens;
  externalId: string;
  accountName: string;
  accountHandle: string | null;
  avatarUrl: string | null;
  /** The permissions the platform says it granted; null when it does not say. */
  scopes: string[] | null;
};

/** Each OAuth platform: its name, the variables that turn it on, its consent page and its code exchange. */
const PROVIDERS: Record<
  OAuthChannel,
  {
    name: string;
    variables: string[];
    configured: () => boolean;
    authorizeUrl: (args: { redirectUri: string; state: string }) => string;
    /** The accounts the authorization lets the brand post as, the signed-in account first. */
    connect: (code: string, redirectUri: string) => Promise<ConnectedAccount[]>;
  }
> = {
  linkedin: {
    name: "LinkedIn",
    variables: ["LINKEDIN_CLIENT_ID", "LINKEDIN_CLIENT_SECRET"],
    configured: linkedinConfigured,
    authorizeUrl: linkedinAuthorizeUrl,
    // The member, and with LINKEDIN_ORGANIZATIONS each company page they may post as (one token for all).
    async connect(code, redirectUri) {
      const tokens = await exchangeLinkedInCode(code, redirectUri);
      const account = await linkedinUserInfo(tokens.access_token);
      const pages = linkedinPagesEnabled() ? await linkedinPages(tokens.access_token) : [];
      return [
        {
          tokens,
          externalId: account.sub,
          accountName: account.name ?? account.given_name ?? "LinkedIn member",
          accountHandle: null,
          avatarUrl: account.picture ?? null,
          scopes: null,
        },
        ...pages.map((page) => ({
          tokens,
          externalId: page.urn,
          accountName: page.name,
          accountHandle: page.vanityName ? `linkedin.com/company/${page.vanityName}` : "company page",
          avatarUrl: null,
          scopes: null,
        })),
      ];
    },
  },
  instagram: {
    name: "Instagram",
    variables: ["INSTAGRAM_APP_ID", "INSTAGRAM_APP_SECRET"],
    configured: instagramConfigured,
    authorizeUrl: instagramAuthorizeUrl,
    // The code for an hour's token, that for a 60-day one, then the professional account it speaks for.
    async connect(code, redirectUri) {
      const short = await exchangeInstagramCode(code, redirectUri);
      const tokens = await longLivedInstagramToken(short.accessToken);
      const account = await instagramAccount(tokens.access_token);
      const handle = account.username ? `@${account.username}` : null;
      return [
        {
          tokens,
          externalId: String(account.user_id ?? short.userId),
          accountName: account.name || handle || "Instagram account",
          accountHandle: handle,
          avatarUrl: account.profile_picture_url ?? null,
          scopes: short.scopes,
        },
      ];
    },
  },
};

export const oauthPlatformName = (channel: OAuthChannel) => PROVIDERS[channel].name;

export function oauthChannel(value: string): OAuthChannel {
  if (!(OAUTH_CHANNELS as readonly string[]).includes(value)) throw notFound("Channel type");
  return value as OAuthChannel;
}

function requireConfigured(channel: OAuthChannel) {
  const provider = PROVIDERS[channel];
  if (provider.configured()) return;
  const missing = provider.variables;
  throw new ApiError(
    "channel_not_configured",
    `This server has no ${provider.name} app configured. An administrator sets ${missing.join(" and ")}.`,
    { details: { channel, missing } },
  );
}

/** Where the platform sends the browser back, on the app's public origin (lib/api/public-origin.ts). */
export function callbackUrl(channel: OAuthChannel, origin: string) {
  return `${origin}/api/channels/oauth/${channel}/callback`;
}

/** GET /api/channels/oauth/{channel}/start: the platform's authorize URL with a signed state. */
export async function startOAuth({
  principal,
  channel,
  brandId,
  origin,
}: {
  principal: Principal;
  channel: OAuthChannel;
  brandId: string;
  /** The app's public origin, where the platform sends the browser back. */
  origin: string;
}) {
  requireConfigured(channel);
  const { brand } = await requireBrandPermission({ principal, brandId, permission: "channel.manage" });
  const state = signOAuthState(getAuthSecret(), { userId: principal.userId, brandId: brand.id, channel });
  return PROVIDERS[channel].authorizeUrl({ redirectUri: callbackUrl(channel, origin), state });
}

function stateError(reason: string, message: string) {
  return new ApiError("oauth_state_invalid", message, { details: { reason } });
}

const RESTART = "Start connecting again from the brand's settings.";

/**
 * GET /api/channels/oauth/{channel}/callback: checks the state (signed, not expired, this user, this
 * platform), exchanges the code, reads the account, and saves the connection with its tokens encrypted.
 * Connecting the same account again replaces the tokens and clears `needs_reconnect`. LinkedIn with
 * LINKEDIN_ORGANIZATIONS that finds company pages the member may post as saves nothing yet: it answers the
 * accounts found (`choice`), for the owner to choose from. Otherwise answers the brand id and the
 * signed-in account's connection.
 */
export async function finishOAuth({
  principal,
  channel,
  params,
  origin,
}: {
  principal: Principal;
  channel: OAuthChannel;
  params: URLSearchParams;
  /** The app's public origin, where the platform sends the browser back. */
  origin: string;
}) {
  requireConfigured(channel);
  const state = params.get("state");
  if (!state) throw stateError("malformed", `The platform sent no state back. ${RESTART}`);
  const verified = verifyOAuthState(getAuthSecret(), state);
  if (!verified.ok) {
    throw stateError(
      verified.reason,
      verified.reason === "expired"
        ? `This connection attempt is older than 10 minutes. ${RESTART}`
        : `This link was not made by this server or was altered. ${RESTART}`,
    );
  }
  const { payload } = verified;
  if (payload.u !== principal.userId)
    throw stateError("foreign", `This connection was started by another user. ${RESTART}`);
  if (payload.c !== channel)
    throw stateError("channel", `This connection was started for another platform. ${RESTART}`);
  const { brand } = await requireBrandPermission({
    principal,
    brandId: payload.b,
    permission: "channel.manage",
  });
  const platform = PROVIDERS[channel].name;
  const declined = params.get("error");
  if (declined) {
    throw new ApiError(
      "channel_check_failed",
      `${platform} did not grant access (${declined}), so nothing was connected. ${RESTART}`,
      { details: { check: "oauth", platformMessage: params.get("error_description") ?? declined } },
    );
  }
  const code = params.get("code");
  if (!code) throw new ApiError("invalid_request", "The platform sent no authorization code back.");

  let accounts: ConnectedAccount[];
  try {
    accounts = await PROVIDERS[channel].connect(code, callbackUrl(channel, origin));
  } catch (error) {
    if (!(error instanceof PlatformError)) throw error;
    if (error.kind === "rejected" || error.kind === "unauthorized") {
      throw new ApiError(
        "channel_check_failed",
        `${platform} refused the authorization (${error.message}); nothing was connected. ${RESTART}`,
        { details: { check: "oauth", platformMessage: error.message } },
      );
    }
    throw new ApiError(
      "provider_unavailable",
      `${platform} did not answer; nothing was connected. ${RESTART}`,
      { headers: { "Retry-After": String(error.retryAfterSeconds ?? PLATFORM_RETRY_AFTER_SECONDS) } },
    );
  }
  // LinkedIn found pages besides the member: the owner chooses which to add (lib/publishing/oauth-choice.ts).
  if (accounts.length > 1) return { brandId: brand.id, choice: accounts };
  const [channelId] = await saveConnections({ principal, brandId: brand.id, channel, accounts });
  return { brandId: brand.id, channelId };
}

/** Saves the accounts, a millisecond apart, so lists (by creation) show the member before their pages. */
export async function saveConnections({
  principal,
  brandId,
  channel,
  accounts,
}: {
  principal: Principal;
  brandId: string;
  channel: OAuthChannel;
  accounts: ConnectedAccount[];
}) {
  const startedAt = Date.now();
  const channelIds: string[] = [];
  for (const [index, account] of accounts.entries()) {
    const createdAt = new Date(startedAt + index);
    channelIds.push(await saveConnection({ principal, brandId, channel, account, createdAt }));
  }
  return channelIds;
}

/** One connected account: new, or the same account again (reconnect: new tokens, `needs_reconnect` cleared). */
async function saveConnection({
  principal,
  brandId,
  channel,
  account,
  createdAt,
}: {
  principal: Principal;
  brandId: string;
  channel: OAuthChannel;
  account: ConnectedAccount;
  createdAt: Date;
}) {
  const credentials = oauthCredentialsFrom(account.tokens);
  const db = await getDb();
  const { externalId } = account;
  const [existing] = await db
    .select({ id: channelConnections.id, avatarUrl: channelConnections.avatarUrl })
    .from(channelConnections)
    .where(
      and(
        eq(channelConnections.brandId, brandId),
        eq(channelConnections.channel, channel),
        eq(channelConnections.externalId, externalId),
      ),
    );
  const id = existing?.id ?? newId("chn");
  const avatarUrl = account.avatarUrl
    ? ((await keepChannelAvatar(id, account.avatarUrl)) ?? account.avatarUrl)
    : null;
  const fields = {
    accountName: account.accountName,
    accountHandle: account.accountHandle,
    avatarUrl,
    credentials: encryptSecret(JSON.stringify(credentials), id),
    grantedScopes: account.scopes,
    status: "active" as const,
    statusMessage: null,
    updatedAt: createdAt,
    connectedBy: principal.userId,
  };
  await db.transaction(async (tx) => {
    // A reconnect that granted the results permission ends the results' "connect again" notice.
    if (existing && account.scopes?.includes(INSTAGRAM_INSIGHTS_SCOPE))
      await tx.update(channelMetricState).set({ notice: null }).where(eq(channelMetricState.channelId, id));
    if (existing) await tx.update(channelConnections).set(fields).where(eq(channelConnections.id, id));
    else
      await tx.insert(channelConnections).values({
        id,
        brandId,
        channel,
        externalId,
        createdBy: principal.userId,
        createdAt,
        // A new connection speaks the brand's main language until an owner picks another (PATCH).
        language: sql`(select ${brands.language} from ${brands} where ${brands.id} = ${brandId})`,
        ...fields,
      });
    await recordActivity(tx, {
      brandId,
      actorId: principal.userId,
      action: "channel.connected",
      subjectType: "channel",
      subjectId: id,
      details: { channel, accountName: account.accountName, reconnected: !!existing },
    });
  });
  if (existing?.avatarUrl !== avatarUrl) await removeChannelAvatar(existing?.avatarUrl);
  log.info("channel_connected", { channelId: id, brandId, channel, reconnected: !!existing });
  return id;
}

/** Tokens as stored; Instagram's long-lived token has no refresh token (it refreshes itself). */
export function oauthCredentialsFrom(tokens: LinkedInTokens, previous?: OAuthCredentials): OAuthCredentials {
  const now = Date.now();
  return {
    accessToken: tokens.access_token,
    accessTokenExpiresAt: now + tokens.expires_in * 1000,
    refreshToken: tokens.refresh_token ?? previous?.refreshToken ?? null,
    refreshTokenExpiresAt: tokens.refresh_token_expires_in
      ? now + tokens.refresh_token_expires_in * 1000
      : (previous?.refreshTokenExpiresAt ?? null),
  };
}
