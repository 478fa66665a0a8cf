import "server-only";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { channelConnections } from "@/db/schema";
import { ApiError, notFound } from "@/lib/api/api-error";
import type { Principal } from "@/lib/auth/authenticate";
import { getAuthSecret } from "@/lib/auth/secret";
import { requireBrandPermission } from "@/lib/brands/brand-access";
import { getEnv } from "@/lib/config";
import { newId } from "@/lib/ids";
import { log } from "@/lib/log";
import { encryptSecret } from "@/lib/security/encrypt-secret";
import type { OAuthCredentials } from "./channels";
import {
  exchangeLinkedInCode,
  type LinkedInTokens,
  linkedinAuthorizeUrl,
  linkedinConfigured,
  linkedinUserInfo,
} from "./linkedin";
import { signOAuthState, verifyOAuthState } from "./oauth-state";
import { PlatformError } from "./platform-error";

/** The platforms that connect through OAuth. */
export const OAUTH_CHANNELS = ["linkedin"] as const;
export type OAuthChannel = (typeof OAUTH_CHANNELS)[number];

const CONFIG_VARIABLES: Record<OAuthChannel, string[]> = {
  linkedin: ["LINKEDIN_CLIENT_ID", "LINKEDIN_CLIENT_SECRET"],
};

export function oauthChannel(value: string): OAuthChannel {
  if (!(OAUTH_CHANNELS as readonly string[]).includes(value)) throw notFound("Channel type");
  return value as OAuthChannel;
}

function requireConfigured(channel: OAuthChannel) {
  if (channel === "linkedin" && linkedinConfigured()) return;
  const missing = CONFIG_VARIABLES[channel];
  throw new ApiError(
    "channel_not_configured",
    `This server has no ${channel === "linkedin" ? "LinkedIn" : channel} app configured. An administrator sets ${missing.join(" and ")}.`,
    { details: { channel, missing } },
  );
}

/** Where the platform sends the browser back: APP_URL's origin, else the request's. */
export function callbackUrl(channel: OAuthChannel, requestUrl: string) {
  const base = getEnv().APP_URL ?? new URL(requestUrl).origin;
  return `${base}/api/channels/oauth/${channel}/callback`;
}

/** GET /api/channels/oauth/{channel}/start: the platform's authorize URL with a signed state. */
export async function startOAuth({
  principal,
  channel,
  brandId,
  requestUrl,
}: {
  principal: Principal;
  channel: OAuthChannel;
  brandId: string;
  requestUrl: string;
}) {
  requireConfigured(channel);
  const { brand } = await requireBrandPermission({ principal, brandId, permission: "channel.manage" });
  const state = signOAuthState(getAuthSecret(), { userId: principal.userId, brandId: brand.id, channel });
  return linkedinAuthorizeUrl({ redirectUri: callbackUrl(channel, requestUrl), state });
}

function stateError(reason: string, message: string) {
  return new ApiError("oauth_state_invalid", message, { details: { reason } });
}

const RESTART = "Start connecting again from the brand's settings.";

/**
 * GET /api/channels/oauth/{channel}/callback: checks the state (signed, not expired, this user, this
 * platform), exchanges the code, reads the account, and saves the connection with its tokens encrypted.
 * Connecting the same account again replaces the tokens and clears `needs_reconnect`. Answers the brand id.
 */
export async function finishOAuth({
  principal,
  channel,
  params,
  requestUrl,
}: {
  principal: Principal;
  channel: OAuthChannel;
  params: URLSearchParams;
  requestUrl: string;
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
  const declined = params.get("error");
  if (declined) {
    throw new ApiError(
      "channel_check_failed",
      `LinkedIn did not grant access (${declined}), so nothing was connected. ${RESTART}`,
      { details: { check: "oauth", platformMessage: params.get("error_description") ?? declined } },
    );
  }
  const code = params.get("code");
  if (!code) throw new ApiError("invalid_request", "The platform sent no authorization code back.");

  let tokens: LinkedInTokens;
  let account: Awaited<ReturnType<typeof linkedinUserInfo>>;
  try {
    tokens = await exchangeLinkedInCode(code, callbackUrl(channel, requestUrl));
    account = await linkedinUserInfo(tokens.access_token);
  } catch (error) {
    if (!(error instanceof PlatformError)) throw error;
    if (error.kind === "rejected" || error.kind === "unauthorized") {
      throw new ApiError(
        "channel_check_failed",
        `LinkedIn refused the authorization (${error.message}); nothing was connected. ${RESTART}`,
        { details: { check: "oauth", platformMessage: error.message } },
      );
    }
    throw new ApiError(
      "provider_unavailable",
      `LinkedIn did not answer; nothing was connected. ${RESTART}`,
      error.retryAfterSeconds ? { headers: { "Retry-After": String(error.retryAfterSeconds) } } : {},
    );
  }
  const credentials = oauthCredentialsFrom(tokens);
  const db = await getDb();
  const externalId = account.sub;
  const now = new Date();
  const [existing] = await db
    .select({ id: channelConnections.id })
    .from(channelConnections)
    .where(
      and(
        eq(channelConnections.brandId, brand.id),
        eq(channelConnections.channel, channel),
        eq(channelConnections.externalId, externalId),
      ),
    );
  const id = existing?.id ?? newId("chn");
  const fields = {
    accountName: account.name ?? account.given_name ?? "LinkedIn member",
    accountHandle: null,
    avatarUrl: account.picture ?? null,
    credentials: encryptSecret(JSON.stringify(credentials), id),
    status: "active" as const,
    statusMessage: null,
    updatedAt: now,
  };
  if (existing) await db.update(channelConnections).set(fields).where(eq(channelConnections.id, id));
  else
    await db.insert(channelConnections).values({
      id,
      brandId: brand.id,
      channel,
      externalId,
      createdBy: principal.userId,
      createdAt: now,
      ...fields,
    });
  log.info("channel_connected", { channelId: id, brandId: brand.id, channel, reconnected: !!existing });
  return { brandId: brand.id, channelId: id };
}

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
