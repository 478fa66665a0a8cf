import "server-only";
import { getEnv } from "@/lib/config";
import { hostOf, platformCall } from "@/lib/publishing/platform-call";
import { kindOfStatus, networkFailure, PlatformError } from "@/lib/publishing/platform-error";

/**
 * LinkedIn, the calls publishing needs (https://learn.microsoft.com/linkedin/): OAuth 2.0 authorization
 * code (`/oauth/v2/authorization`, `/oauth/v2/accessToken`, also for `refresh_token`), OpenID's
 * `/v2/userinfo` for the member's id, name and picture, `POST /rest/images?action=initializeUpload` + a PUT of
 * the bytes to the returned upload URL, the Videos API (`initializeUpload`, a PUT per part, `finalizeUpload`,
 * `GET /rest/videos/{urn}` for its status), `POST /rest/posts` (the new post's URN in `x-restli-id`) and its
 * author finder (`GET /rest/posts?q=author`, to settle a lost answer). The versioned `/rest` calls send
 * `LinkedIn-Version` and `X-Restli-Protocol-Version: 2.0.0`. Tokens travel only in headers and form bodies,
 * never in a logged URL.
 */

export const LINKEDIN_VERSION = "202510";
const MEMBER_SCOPES = "openid profile w_member_social";
/** With LINKEDIN_ORGANIZATIONS: the pages the member administers, and posting as them. */
const ORGANIZATION_SCOPES = "r_organization_admin w_organization_social";
/** Page roles that may publish a page's organic posts (LinkedIn's w_organization_social). */
const POSTING_ROLES = new Set(["ADMINISTRATOR", "CONTENT_ADMINISTRATOR"]);

const linkedinScopes = () =>
  linkedinPagesEnabled() ? `${MEMBER_SCOPES} ${ORGANIZATION_SCOPES}` : MEMBER_SCOPES;

/**
 * The author URN a connection posts as: a page's connection stores its organization URN, a member's its
 * OpenID `sub` (a person).
 */
export const linkedinAuthor = (externalId: string) =>
  externalId.startsWith("urn:li:organization:") ? externalId : `urn:li:person:${externalId}`;

const PLATFORM = "LinkedIn";

export const linkedinConfigured = () => {
  const env = getEnv();
  return Boolean(env.LINKEDIN_CLIENT_ID && env.LINKEDIN_CLIENT_SECRET);
};

/** Whether connecting LinkedIn also connects the company pages the member may post as. */
export const linkedinPagesEnabled = () => linkedinConfigured() && getEnv().LINKEDIN_ORGANIZATIONS;

export type LinkedInTokens = {
  access_token: string;
  expires_in: number;
  refresh_token?: string;
  refresh_token_expires_in?: number;
  scope?: string;
};

export type LinkedInUserInfo = { sub: string; name?: string; given_name?: string; picture?: string };

/** The platform's message from an error body: LinkedIn's `{message}` or OAuth's `{error_description}`. */
async function failure(response: Response): Promise<PlatformError> {
  let message = `LinkedIn answered HTTP ${response.status}.`;
  try {
    const body = (await response.json()) as { message?: string; error_description?: string; error?: string };
    message = body.message ?? body.error_description ?? body.error ?? message;
  } catch {
    // not JSON: keep the status line
  }
  const retryAfter = Number(response.headers.get("retry-after"));
  return new PlatformError(
    PLATFORM,
    kindOfStatus(response.status),
    message,
    response.status,
    Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null,
  );
}

/**
 * One LinkedIn call, in a CLIENT span `linkedin <call>` counted in brand_studio_provider_calls_total
 * (provider `linkedin`). The span names the host and the call, never the URL (an upload URL is signed).
 */
function send(call: string, url: string, init: RequestInit, timeoutMs?: number): Promise<Response> {
  const attributes = {
    "brand_studio.linkedin_call": call,
    "http.request.method": init.method ?? "GET",
    "server.address": hostOf(url),
  };
  return platformCall("linkedin", call, attributes, () => request(url, init, timeoutMs));
}

async function request(url: string, init: RequestInit, timeoutMs?: number): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, {
      ...init,
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs ?? getEnv().PUBLISH_TIMEOUT_MS),
    });
  } catch (error) {
    throw networkFailure(PLATFORM, error);
  }
  if (!response.ok) throw await failure(response);
  return response;
}

const restHeaders = (accessToken: string) => ({
  Authorization: `Bearer ${accessToken}`,
  "LinkedIn-Version": LINKEDIN_VERSION,
  "X-Restli-Protocol-Version": "2.0.0",
  "Content-Type": "application/json",
});

export function linkedinAuthorizeUrl({ redirectUri, state }: { redirectUri: string; state: string }) {
  const env = getEnv();
  const url = new URL(`${env.LINKEDIN_AUTH_BASE_URL}/oauth/v2/authorization`);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", env.LINKEDIN_CLIENT_ID ?? "");
  url.searchParams.set("redirect_uri", redirectUri);
  url.searchParams.set("state", state);
  url.searchParams.set("scope", linkedinScopes());
  return url.toString();
}

async function tokenRequest(fields: Record<string, string>): Promise<LinkedInTokens> {
  const env = getEnv();
  const response = await send(
    "token",
    `${env.LINKEDIN_AUTH_BASE_URL}/oauth/v2/accessToken`,
    {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        ...fields,
        client_id: env.LINKEDIN_CLIENT_ID ?? "",
        client_secret: env.LINKEDIN_CLIENT_SECRET ?? "",
      }),
    },
    15_000,
  );
  return (await response.json()) as LinkedInTokens;
}

export const exchangeLinkedInCode = (code: string, redirectUri: string) =>
  tokenRequest({ grant_type: "authorization_code", code, redirect_uri: redirectUri });

export const refreshLinkedInToken = (refreshToken: string) =>
  tokenRequest({ grant_type: "refresh_token", refresh_token: refreshToken });

export async function linkedinUserInfo(accessToken: string): Promise<LinkedInUserInfo> {
  const response = await send(
    "userinfo",
    `${getEnv().LINKEDIN_API_BASE_URL}/v2/userinfo`,
    { headers: { Authorization: `Bearer ${accessToken}` } },
    15_000,
  );
  return (await response.json()) as LinkedInUserInfo;
}

export type LinkedInPage = { urn: string; name: string; vanityName: string | null };

/**
 * The company pages the member may post as: their approved page roles (`GET /rest/organizationAcls`, the
 * roleAssignee finder), kept where the role publishes (administrator, content administrator), each page's
 * name from `GET /rest/organizations/{id}`.
 */
export async function linkedinPages(accessToken: string): Promise<LinkedInPage[]> {
  const base = getEnv().LINKEDIN_API_BASE_URL;
  const headers = restHeaders(accessToken);
  const acls = await send(
    "organizationAcls",
    `${base}/rest/organizationAcls?q=roleAssignee&state=APPROVED&count=100`,
    { headers },
    15_000,
  );
  const { elements = [] } = (await acls.json()) as { elements?: { organization?: string; role?: string }[] };
  const urns = [
    ...new Set(
      elements
        .filter((acl) => acl.role && POSTING_ROLES.has(acl.role))
        .map((acl) => acl.organization)
        .filter((urn): urn is string => /^urn:li:organization:\d+$/.test(urn ?? "")),
    ),
  ];
  const pages: LinkedInPage[] = [];
  for (const urn of urns) {
    const id = urn.slice("urn:li:organization:".length);
    const response = await send("organizations", `${base}/rest/organizations/${id}`, { headers }, 15_000);
    const page = (await response.json()) as { localizedName?: string; vanityName?: string };
    pages.push({
      urn,
      name: page.localizedName || `LinkedIn page ${id}`,
      vanityName: page.vanityName ?? null,
    });
  }
  return pages;
}

/** initializeUpload, then the PUT of the bytes; answers the image URN for the post. */
export async function uploadLinkedInImage(
  accessToken: string,
  owner: string,
  image: { bytes: Buffer; contentType: string },
): Promise<string> {
  const env = getEnv();
  const initialized = await send(
    "images.initializeUpload",
    `${env.LINKEDIN_API_BASE_URL}/rest/images?action=initializeUpload`,
    {
      method: "POST",
      headers: restHeaders(accessToken),
      body: JSON.stringify({ initializeUploadRequest: { owner } }),
    },
  );
  const { value } = (await initialized.json()) as { value: { uploadUrl: string; image: string } };
  await send("image upload", value.uploadUrl, {
    method: "PUT",
    headers: { Authorization: `Bearer ${accessToken}`, "Content-Type": image.contentType },
    body: new Uint8Array(image.bytes),
  });
  return value.image;
}

/**
 * LinkedIn's "little text" format: these characters are markup in `commentary` and must be escaped, or the
 * text after them is lost. Hashtags become hashtag templates so they stay links.
 */
export function linkedinCommentary(text: string) {
  return text.replace(/#([\p{L}\p{N}_]+)|[\\|{}@[\]()<>*_~#]/gu, (match, tag?: string) =>
    tag ? `{hashtag|\\#|${tag}}` : `\\${match}`,
  );
}

const permalinkOf = (urn: string) => `https://www.linkedin.com/feed/update/${urn}/`;

export async function createLinkedInPost(
  accessToken: string,
  post: {
    author: string;
    text: string;
    images: { urn: string; altText: string }[];
    /** A video post: `content.media` is the video (a post carries one video or images, never both). */
    video?: { urn: string; title: string };
  },
): Promise<{ urn: string; permalink: string }> {
  const content = post.video
    ? { media: { id: post.video.urn, title: post.video.title } }
    : post.images.length === 0
      ? undefined
      : post.images.length === 1
        ? { media: { id: post.images[0].urn, altText: post.images[0].altText } }
        : { multiImage: { images: post.images.map((image) => ({ id: image.urn, altText: image.altText })) } };
  const response = await send("posts", `${getEnv().LINKEDIN_API_BASE_URL}/rest/posts`, {
    method: "POST",
    headers: restHeaders(accessToken),
    body: JSON.stringify({
      author: post.author,
      commentary: linkedinCommentary(post.text),
      visibility: "PUBLIC",
      distribution: { feedDistribution: "MAIN_FEED", targetEntities: [], thirdPartyDistributionChannels: [] },
      ...(content ? { content } : {}),
      lifecycleState: "PUBLISHED",
      isReshareDisabledByAuthor: false,
    }),
  });
  const urn = response.headers.get("x-restli-id");
  if (!urn) throw new PlatformError(PLATFORM, "unknown", "LinkedIn created the post but sent no post id.");
  return { urn, permalink: permalinkOf(urn) };
}

/**
 * The author's post made since `since` whose commentary is exactly `commentary` (as sent), or null when there is
 * none: the Posts API's author finder (`GET /rest/posts?q=author`, `X-RestLi-Method: FINDER`, the 10 most
 * recently modified). Asked after `/rest/posts` answered a 5xx or no answer, to tell whether the post was made.
 * A failure of the finder itself throws, as any call does.
 */
export async function findLinkedInPost(
  accessToken: string,
  author: string,
  commentary: string,
  since: Date,
): Promise<{ urn: string; permalink: string } | null> {
  const query = new URLSearchParams({ author, q: "author", count: "10", sortBy: "LAST_MODIFIED" });
  const response = await send(
    "posts.findByAuthor",
    `${getEnv().LINKEDIN_API_BASE_URL}/rest/posts?${query}`,
    { headers: { ...restHeaders(accessToken), "X-RestLi-Method": "FINDER" } },
    15_000,
  );
  const { elements = [] } = (await response.json()) as {
    elements?: { id?: string; commentary?: string; createdAt?: number }[];
  };
  const found = elements.find(
    (post) => post.id && post.commentary === commentary && (post.createdAt ?? 0) >= since.getTime(),
  );
  return found?.id ? { urn: found.id, permalink: permalinkOf(found.id) } : null;
}

/** One part of a video upload: PUT bytes firstByte..lastByte (inclusive) to uploadUrl (signed: never logged). */
export type LinkedInUploadPart = { uploadUrl: string; firstByte: number; lastByte: number };
export type LinkedInVideoUpload = {
  video: string;
  uploadToken: string;
  uploadInstructions: LinkedInUploadPart[];
  /** Where the thumbnail goes (signed: never logged), when one was asked for. */
  thumbnailUploadUrl?: string;
};

/**
 * `POST /rest/videos?action=initializeUpload`: the video URN, its upload token, the parts to PUT and, with
 * `uploadThumbnail`, the thumbnail's upload URL.
 */
export async function initializeLinkedInVideoUpload(
  accessToken: string,
  owner: string,
  fileSizeBytes: number,
  uploadThumbnail: boolean,
): Promise<LinkedInVideoUpload> {
  const response = await send(
    "videos.initializeUpload",
    `${getEnv().LINKEDIN_API_BASE_URL}/rest/videos?action=initializeUpload`,
    {
      method: "POST",
      headers: restHeaders(accessToken),
      body: JSON.stringify({
        initializeUploadRequest: { owner, fileSizeBytes, uploadCaptions: false, uploadThumbnail },
      }),
    },
  );
  const { value } = (await response.json()) as { value: Partial<LinkedInVideoUpload> };
  if (
    !value?.video ||
    !Array.isArray(value.uploadInstructions) ||
    (uploadThumbnail && typeof value.thumbnailUploadUrl !== "string")
  )
    throw new PlatformError(
      PLATFORM,
      "transient",
      "LinkedIn answered initializeUpload without upload instructions.",
    );
  return {
    video: value.video,
    uploadToken: value.uploadToken ?? "",
    uploadInstructions: value.uploadInstructions,
    ...(uploadThumbnail ? { thumbnailUploadUrl: value.thumbnailUploadUrl } : {}),
  };
}

/** The PUT of the video's thumbnail (a JPEG) to the URL initializeUpload gave for it. */
export async function putLinkedInVideoThumbnail(
  accessToken: string,
  thumbnailUploadUrl: string,
  jpeg: Buffer,
) {
  const response = await send("videos.uploadThumbnail", thumbnailUploadUrl, {
    method: "PUT",
    headers: { Authorization: `Bearer ${accessToken}`, "Content-Type": "image/jpeg" },
    body: new Uint8Array(jpeg),
  });
  await response.body?.cancel();
}

/** The PUT of one part's bytes to its upload URL; answers the part's ETag (its id for finalizeUpload). */
export async function putLinkedInVideoPart(
  accessToken: string,
  uploadUrl: string,
  bytes: Uint8Array<ArrayBuffer>,
): Promise<string> {
  const response = await send("videos.uploadPart", uploadUrl, {
    method: "PUT",
    headers: { Authorization: `Bearer ${accessToken}`, "Content-Type": "application/octet-stream" },
    body: bytes,
  });
  await response.body?.cancel();
  const etag = response.headers.get("etag");
  if (!etag)
    throw new PlatformError(PLATFORM, "transient", "LinkedIn took a video part but sent no ETag for it.");
  return etag;
}

/** `POST /rest/videos?action=finalizeUpload` with the parts' ETags in upload-instruction order. */
export async function finalizeLinkedInVideoUpload(
  accessToken: string,
  upload: Pick<LinkedInVideoUpload, "video" | "uploadToken">,
  uploadedPartIds: string[],
) {
  const response = await send(
    "videos.finalizeUpload",
    `${getEnv().LINKEDIN_API_BASE_URL}/rest/videos?action=finalizeUpload`,
    {
      method: "POST",
      headers: restHeaders(accessToken),
      body: JSON.stringify({
        finalizeUploadRequest: { video: upload.video, uploadToken: upload.uploadToken, uploadedPartIds },
      }),
    },
  );
  await response.body?.cancel();
}

export type LinkedInVideoStatus = {
  status: "WAITING_UPLOAD" | "PROCESSING" | "AVAILABLE" | "PROCESSING_FAILED" | string;
  processingFailureReason?: string;
};

/** `GET /rest/videos/{urn}`: the video's processing status. */
export async function linkedinVideoStatus(accessToken: string, urn: string): Promise<LinkedInVideoStatus> {
  const response = await send(
    "videos.get",
    `${getEnv().LINKEDIN_API_BASE_URL}/rest/videos/${encodeURIComponent(urn)}`,
    { headers: restHeaders(accessToken) },
  );
  return (await response.json()) as LinkedInVideoStatus;
}
