import "server-only";
import { getEnv } from "@/lib/config";
import { hostOf, platformCall } from "@/lib/publishing/platform-call";
import { networkFailure, PlatformError } from "@/lib/publishing/platform-error";

/**
 * Instagram through "Instagram API with Instagram Login" (a professional account), the calls publishing
 * needs (https://developers.facebook.com/docs/instagram-platform/): the consent page
 * `{INSTAGRAM_AUTH_BASE_URL}/oauth/authorize`, the code exchange `POST {INSTAGRAM_TOKEN_BASE_URL}/oauth/access_token`
 * (a one-hour token), `GET {graph}/access_token?grant_type=ig_exchange_token` (60 days) and
 * `GET {graph}/refresh_access_token?grant_type=ig_refresh_token`; `GET {graph}/me`; and content publishing:
 * `POST /{ig-user-id}/media` (a container Instagram fills by fetching `image_url` / `video_url`),
 * `GET /{container-id}?fields=status_code`, `POST /{ig-user-id}/media_publish`,
 * `GET /{ig-user-id}/content_publishing_limit`, and `GET /{ig-user-id}/media` (to find the post a container
 * made when media_publish's answer was lost). Errors are `{error: {message, type, code, error_subcode,
 * fbtrace_id}}`; code 190 is a refused token. The access token travels in the query or the form body, so no
 * URL is ever logged, put in a span or in an error message, and a platform message is scrubbed of it.
 */

export const INSTAGRAM_INSIGHTS_SCOPE = "instagram_business_manage_insights";
export const INSTAGRAM_SCOPES = `instagram_business_basic,instagram_business_content_publish,${INSTAGRAM_INSIGHTS_SCOPE}`;
export const INSTAGRAM_GRAPH_VERSION = "v23.0";
const PLATFORM = "Instagram";

export const instagramConfigured = () => {
  const env = getEnv();
  return Boolean(env.INSTAGRAM_APP_ID && env.INSTAGRAM_APP_SECRET);
};

export type InstagramTokens = { access_token: string; expires_in: number; token_type?: string };
export type InstagramAccount = {
  user_id: string;
  id?: string;
  username?: string;
  name?: string;
  profile_picture_url?: string;
};
export type ContainerStatus = "EXPIRED" | "ERROR" | "FINISHED" | "IN_PROGRESS" | "PUBLISHED";

type GraphError = {
  error?: { message?: string; type?: string; code?: number; error_subcode?: number; fbtrace_id?: string };
  error_message?: string;
  error_type?: string;
  code?: number;
};

/** Graph's rate-limit codes (application, user, API, and a call's own). */
const THROTTLED = new Set([4, 17, 32, 613]);
/** Graph's transient codes: unknown error, service temporarily unavailable. */
const TEMPORARY = new Set([1, 2]);

function scrub(message: string, secrets: string[]) {
  let out = message;
  for (const secret of secrets) if (secret) out = out.split(secret).join("[token]");
  return out;
}

/** A failed answer in publishing's terms: 190 a refused token, throttling and 5xx transient, 10/2xx permissions. */
async function failure(response: Response, secrets: string[]): Promise<PlatformError> {
  let body: GraphError = {};
  try {
    body = (await response.json()) as GraphError;
  } catch {
    // not JSON: keep the status line
  }
  const code = body.error?.code ?? body.code;
  const subcode = body.error?.error_subcode;
  const text = body.error?.message ?? body.error_message ?? `Instagram answered HTTP ${response.status}.`;
  const message = scrub(subcode ? `${text} (code ${code}, subcode ${subcode})` : text, secrets);
  const retryAfter = Number(response.headers.get("retry-after"));
  const wait = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null;
  if (code === 190 || response.status === 401)
    return new PlatformError(PLATFORM, "unauthorized", message, response.status);
  if (response.status === 429 || (code !== undefined && THROTTLED.has(code)))
    return new PlatformError(PLATFORM, "transient", message, 429, wait);
  if (response.status >= 500 || (code !== undefined && TEMPORARY.has(code)))
    return new PlatformError(
      PLATFORM,
      "transient",
      message,
      response.status >= 500 ? response.status : 503,
      wait,
    );
  if (response.status === 403 || code === 10 || (code !== undefined && code >= 200 && code < 300))
    return new PlatformError(PLATFORM, "rejected", message, 403);
  return new PlatformError(PLATFORM, "rejected", message, response.status);
}

/**
 * One Graph (or OAuth) call, in a CLIENT span `instagram <call>`. GET parameters go in the query, POST
 * parameters in a form body; `access_token` is added to them and never leaves this function in a URL.
 */
function graph<T>(
  call: string,
  method: "GET" | "POST",
  base: string,
  path: string,
  params: Record<string, string>,
  options: { accessToken?: string; timeoutMs?: number } = {},
): Promise<T> {
  const attributes = {
    "brand_studio.instagram_call": call,
    "http.request.method": method,
    "server.address": hostOf(base),
  };
  return platformCall("instagram", call, attributes, async () => {
    const fields = new URLSearchParams(params);
    if (options.accessToken) fields.set("access_token", options.accessToken);
    const url = new URL(`${base}${path}`);
    if (method === "GET") for (const [key, value] of fields) url.searchParams.set(key, value);
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        redirect: "manual",
        ...(method === "POST"
          ? { body: fields, headers: { "Content-Type": "application/x-www-form-urlencoded" } }
          : {}),
        signal: AbortSignal.timeout(options.timeoutMs ?? getEnv().PUBLISH_TIMEOUT_MS),
      });
    } catch (error) {
      throw networkFailure(PLATFORM, error);
    }
    const secrets = [options.accessToken ?? "", getEnv().INSTAGRAM_APP_SECRET ?? ""];
    if (!response.ok) throw await failure(response, secrets);
    try {
      return (await response.json()) as T;
    } catch (error) {
      if ((error as Error).name === "TimeoutError") throw networkFailure(PLATFORM, error);
      throw new PlatformError(PLATFORM, "unknown", "Instagram answered with something that is not JSON.");
    }
  });
}

const versioned = (path: string) => `/${INSTAGRAM_GRAPH_VERSION}${path}`;

export function instagramAuthorizeUrl({ redirectUri, state }: { redirectUri: string; state: string }) {
  const env = getEnv();
  const url = new URL(`${env.INSTAGRAM_AUTH_BASE_URL}/oauth/authorize`);
  url.searchParams.set("client_id", env.INSTAGRAM_APP_ID ?? "");
  url.searchParams.set("redirect_uri", redirectUri);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("scope", INSTAGRAM_SCOPES);
  url.searchParams.set("state", state);
  return url.toString();
}

/**
 * The code for a short-lived token (an hour), and the permissions granted (`permissions`: a comma-separated
 * list, or an array; null when Instagram did not say). Instagram answers `{data: [{…}]}` or, formerly, the fields.
 */
export async function exchangeInstagramCode(code: string, redirectUri: string) {
  const env = getEnv();
  type Token = { access_token?: string; user_id?: string | number; permissions?: string | string[] };
  const answer = await graph<Token & { data?: Token[] }>(
    "oauth.access_token",
    "POST",
    env.INSTAGRAM_TOKEN_BASE_URL,
    "/oauth/access_token",
    {
      client_id: env.INSTAGRAM_APP_ID ?? "",
      client_secret: env.INSTAGRAM_APP_SECRET ?? "",
      grant_type: "authorization_code",
      redirect_uri: redirectUri,
      code,
    },
    { timeoutMs: 15_000 },
  );
  const token = answer.data?.[0] ?? answer;
  if (!token.access_token)
    throw new PlatformError(PLATFORM, "rejected", "Instagram answered the code exchange with no token.");
  const granted = token.permissions;
  const scopes =
    granted === undefined
      ? null
      : (Array.isArray(granted) ? granted : granted.split(",")).map((scope) => scope.trim()).filter(Boolean);
  return { accessToken: token.access_token, userId: String(token.user_id ?? ""), scopes };
}

/** A short-lived token for a long-lived one (60 days). */
export const longLivedInstagramToken = (shortLived: string) =>
  graph<InstagramTokens>(
    "access_token",
    "GET",
    getEnv().INSTAGRAM_GRAPH_BASE_URL,
    "/access_token",
    { grant_type: "ig_exchange_token", client_secret: getEnv().INSTAGRAM_APP_SECRET ?? "" },
    { accessToken: shortLived, timeoutMs: 15_000 },
  );

/** A long-lived token (at least a day old, not expired) for a new one valid 60 days from now. */
export const refreshInstagramToken = (longLived: string) =>
  graph<InstagramTokens>(
    "refresh_access_token",
    "GET",
    getEnv().INSTAGRAM_GRAPH_BASE_URL,
    "/refresh_access_token",
    { grant_type: "ig_refresh_token" },
    { accessToken: longLived, timeoutMs: 15_000 },
  );

export const instagramAccount = (accessToken: string) =>
  graph<InstagramAccount>(
    "me",
    "GET",
    getEnv().INSTAGRAM_GRAPH_BASE_URL,
    versioned("/me"),
    { fields: "user_id,username,name,profile_picture_url" },
    { accessToken, timeoutMs: 15_000 },
  );

/** The 24-hour publishing quota: how many API posts were made, and the limit and window. */
export async function instagramPublishingLimit(accessToken: string, igUserId: string) {
  const answer = await graph<{
    data?: { quota_usage?: number; config?: { quota_total?: number; quota_duration?: number } }[];
  }>(
    "content_publishing_limit",
    "GET",
    getEnv().INSTAGRAM_GRAPH_BASE_URL,
    versioned(`/${encodeURIComponent(igUserId)}/content_publishing_limit`),
    { fields: "quota_usage,config" },
    { accessToken },
  );
  const entry = answer.data?.[0] ?? {};
  return {
    used: entry.quota_usage ?? 0,
    total: entry.config?.quota_total ?? 50,
    windowSeconds: entry.config?.quota_duration ?? 86_400,
  };
}

export type ContainerParams =
  | { kind: "image"; imageUrl: string; caption?: string; carouselItem?: boolean }
  | { kind: "reel"; videoUrl: string; caption: string }
  | { kind: "carousel"; children: string[]; caption: string }
  | { kind: "story"; imageUrl: string }
  | { kind: "story"; videoUrl: string };

function containerFields(params: ContainerParams): Record<string, string> {
  switch (params.kind) {
    case "image":
      return {
        image_url: params.imageUrl,
        ...(params.carouselItem ? { is_carousel_item: "true" } : {}),
        ...(params.caption !== undefined ? { caption: params.caption } : {}),
      };
    case "reel":
      return { media_type: "REELS", video_url: params.videoUrl, caption: params.caption };
    case "carousel":
      return { media_type: "CAROUSEL", children: params.children.join(","), caption: params.caption };
    case "story":
      // A story takes no caption.
      return "videoUrl" in params
        ? { media_type: "STORIES", video_url: params.videoUrl }
        : { media_type: "STORIES", image_url: params.imageUrl };
  }
}

/** POST /{ig-user-id}/media: a container, which Instagram fills by fetching the media URL. */
export async function createInstagramContainer(
  accessToken: string,
  igUserId: string,
  params: ContainerParams,
) {
  const fields = containerFields(params);
  const answer = await graph<{ id: string }>(
    "media",
    "POST",
    getEnv().INSTAGRAM_GRAPH_BASE_URL,
    versioned(`/${encodeURIComponent(igUserId)}/media`),
    fields,
    { accessToken },
  );
  return answer.id;
}

export async function instagramContainerStatus(accessToken: string, containerId: string) {
  const answer = await graph<{ status_code: ContainerStatus; status?: string }>(
    "container status",
    "GET",
    getEnv().INSTAGRAM_GRAPH_BASE_URL,
    versioned(`/${encodeURIComponent(containerId)}`),
    { fields: "status_code,status" },
    { accessToken },
  );
  return { code: answer.status_code, detail: answer.status ?? null };
}

/** POST /{ig-user-id}/media_publish: the one call that makes a post. Answers the new media's id. */
export async function publishInstagramContainer(accessToken: string, igUserId: string, creationId: string) {
  const answer = await graph<{ id: string }>(
    "media_publish",
    "POST",
    getEnv().INSTAGRAM_GRAPH_BASE_URL,
    versioned(`/${encodeURIComponent(igUserId)}/media_publish`),
    { creation_id: creationId },
    { accessToken },
  );
  return answer.id;
}

export type InstagramMediaItem = { id: string; caption?: string; permalink?: string; timestamp?: string };

/** GET /{ig-user-id}/media: the account's latest posts, newest first. */
export async function instagramRecentMedia(accessToken: string, igUserId: string) {
  const answer = await graph<{ data?: InstagramMediaItem[] }>(
    "media list",
    "GET",
    getEnv().INSTAGRAM_GRAPH_BASE_URL,
    versioned(`/${encodeURIComponent(igUserId)}/media`),
    { fields: "id,caption,permalink,timestamp", limit: "25" },
    { accessToken },
  );
  return answer.data ?? [];
}

export async function instagramPermalink(accessToken: string, mediaId: string) {
  const answer = await graph<{ permalink?: string }>(
    "media permalink",
    "GET",
    getEnv().INSTAGRAM_GRAPH_BASE_URL,
    versioned(`/${encodeURIComponent(mediaId)}`),
    { fields: "permalink" },
    { accessToken },
  );
  return answer.permalink ?? null;
}
