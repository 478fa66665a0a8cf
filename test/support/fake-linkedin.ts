import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createFakeInsights, type FakeInsights } from "./fake-insights";
import { readBody, sendJson } from "./fake-provider-kit";

/**
 * A local server that speaks LinkedIn's documented APIs as publishing uses them, serving both hosts
 * (LINKEDIN_AUTH_BASE_URL and LINKEDIN_API_BASE_URL point here):
 * - `GET /oauth/v2/authorization` — an HTML consent page ("Allow" / "Cancel") that sends the browser back to
 *   `redirect_uri` with `code` and `state` (or `error=user_cancelled_authorize`);
 * - `POST /oauth/v2/accessToken` — form body, `authorization_code` or `refresh_token` grants;
 * - `GET /v2/userinfo` — OpenID: `sub`, `name`, `picture`;
 * - `POST /rest/images?action=initializeUpload` → `{value: {uploadUrl, image}}`, then `PUT` of the bytes;
 * - the Videos API: `POST /rest/videos?action=initializeUpload` → `{value: {video, uploadToken,
 *   uploadInstructions: [{uploadUrl, firstByte, lastByte}]}}` (parts of `behavior.videoPartBytes`, 4 MB as
 *   LinkedIn's), a `PUT` per part to its signed URL (the body must be exactly that byte range; answers an
 *   `ETag`, after `videoPartLatencyMs`), `POST /rest/videos?action=finalizeUpload` (the ETags in part order, the upload token), then
 *   `GET /rest/videos/{urn}`: PROCESSING for `behavior.videoProcessing.reads` reads, then AVAILABLE (or
 *   PROCESSING_FAILED with `processingFailureReason` when `behavior.videoProcessing.fail` is set). With
 *   `uploadThumbnail: true` the answer also has a signed `thumbnailUploadUrl` that takes a `PUT` of a JPEG or
 *   PNG, and finalizeUpload is refused until it has. `videos` keeps each video's assembled bytes and its
 *   thumbnail, so a test can compare them with the source;
 * - company pages: `GET /rest/organizationAcls?q=roleAssignee` (the member's page roles in `pages`, filtered by
 *   `role` and `state`) and `GET /rest/organizations/{id}` (its `localizedName`, `vanityName`); both need the
 *   `r_organization_admin` scope, and posting or uploading as `urn:li:organization:{id}` needs
 *   `w_organization_social` and a posting role (ADMINISTRATOR, CONTENT_ADMINISTRATOR) on that page. A token's
 *   scopes are those the authorize URL asked for;
 * - `POST /rest/posts` → 201 with the post's URN in `x-restli-id`; `GET /rest/posts?author={urn}&q=author&count=N`
 *   (with `X-RestLi-Method: FINDER`) → `{paging, elements}`, the author's posts newest first, each with `id`,
 *   `author`, `commentary` (as sent), `lifecycleState` and `createdAt`/`lastModifiedAt`/`publishedAt` (epoch ms).
 *   The `/rest` calls must carry `LinkedIn-Version` and `X-Restli-Protocol-Version: 2.0.0`. Errors: `{status, serviceErrorCode, code, message}`.
 * Knobs (`behavior`, also `POST /__fake/behavior`): the next N post calls answer 429 (with Retry-After) or
 * 5xx, or make the post and then answer 5xx (`recordThenFail`); the next N author finder calls fail
 * (`finderError`); the next N video part PUTs answer 5xx (`videoPartError`); `tokenLifetimeSeconds`;
 * `revokeAll()` makes every issued token answer 401 (`revokeOnNextPost`: as the next REST write arrives).
 * `posts` records every post made (also `GET /__fake/state`), so a test can count them.
 * Results (`insights` grows them, see fake-insights.ts; `POST /__fake/insights`):
 * - `GET /rest/memberCreatorPostAnalytics?q=entity&entity=(share:{urn})&queryType=IMPRESSION|MEMBERS_REACHED|
 *   REACTION|COMMENT|RESHARE&aggregation=TOTAL` → `{elements: [{count, metricType}]}` (none for a fresh
 *   post); needs the `r_member_postAnalytics` scope, else 403 ACCESS_DENIED;
 * - `GET /rest/organizationalEntityShareStatistics?q=organizationalEntity&organizationalEntity={org}&
 *   shares=List({urn})` → `{elements: [{totalShareStatistics: {impressionCount, uniqueImpressionsCount,
 *   clickCount, likeCount, commentCount, shareCount, engagement}}]}` (needs `r_organization_admin`);
 * - `GET /rest/socialMetadata/{urn}` → `{reactionSummaries, commentSummary}` with any working token;
 * - `GET /rest/networkSizes/{org}?edgeType=COMPANY_FOLLOWED_BY_MEMBER` → `{firstDegreeSize}`;
 * - 429 with Retry-After for the next `insights.behavior.rateLimit.count` of these; `insights.behavior.denied`
 *   refuses the analytics calls (403) as for an app without the product.
 */

export type FakeLinkedInPost = {
  urn: string;
  author: string;
  commentary: string;
  images: { urn: string; bytes: number; contentType: string; altText: string }[];
  /** A video post's video (`content.media` holding a video URN), else null. */
  video: { urn: string; title: string; bytes: number } | null;
  headers: { version: string | undefined; restli: string | undefined };
  at: number;
};

export type FakeLinkedInBehavior = {
  rateLimit: { count: number; retryAfterSeconds: number };
  serverError: { count: number; status: number };
  /** The next `count` post calls make the post (recorded), then answer this 5xx, as a gateway that lost the answer. */
  recordThenFail: { count: number; status: number };
  /** The next `count` author finder calls (`GET /rest/posts?q=author`) answer this status. */
  finderError: { count: number; status: number };
  /** expires_in of the access tokens it issues. */
  tokenLifetimeSeconds: number;
  /** The profile picture's link no longer answers (404), as a CDN link does once it expires. */
  avatarGone: boolean;
  /** The next REST write (a post, an upload) revokes every token first: access revoked just as a post went out. */
  revokeOnNextPost: boolean;
  /** Size of a video upload part (LinkedIn's are 4 MB); the last part holds the rest. */
  videoPartBytes: number;
  /** The next `count` video part PUTs answer `status` (and store nothing). */
  videoPartError: { count: number; status: number };
  /** How long each video part PUT waits (after its body arrived) before it answers. */
  videoPartLatencyMs: number;
  /** Status reads that answer PROCESSING after finalizeUpload; then AVAILABLE, or PROCESSING_FAILED with `fail`. */
  videoProcessing: { reads: number; fail: string | null };
};

export type FakeLinkedInVideo = {
  urn: string;
  owner: string;
  fileSizeBytes: number;
  uploadToken: string;
  parts: { firstByte: number; lastByte: number; sig: string; etag: string | null; bytes: Buffer | null }[];
  status: "WAITING_UPLOAD" | "PROCESSING" | "AVAILABLE" | "PROCESSING_FAILED";
  /** Status reads left that answer PROCESSING, and the failure reason, fixed at finalizeUpload. */
  processing: { reads: number; fail: string | null };
  /** The parts' bytes joined in order at finalizeUpload. */
  assembled: Buffer | null;
  /** Asked for with `uploadThumbnail: true`: its upload URL's signature, then what was PUT there. */
  thumbnail: { sig: string; bytes: Buffer | null; contentType: string | null } | null;
};

export type FakeLinkedIn = {
  url: string;
  clientId: string;
  clientSecret: string;
  behavior: FakeLinkedInBehavior;
  posts: FakeLinkedInPost[];
  /** Videos by URN. */
  videos: Map<string, FakeLinkedInVideo>;
  /** Every video part PUT, in order: which video and part, and the status answered. */
  partPuts: { urn: string; part: number; status: number }[];
  grants: { grantType: string; status: number }[];
  member: { sub: string; name: string; picture: string };
  /** The member's roles on company pages (LinkedIn's organizationAcls). */
  pages: FakeLinkedInPage[];
  /** The scope of every authorize request, in order. */
  requestedScopes: string[];
  /** Every access and refresh token issued, to look for in logs and database dumps. */
  issuedTokens: () => string[];
  revokeAll: () => void;
  insights: FakeInsights;
  close: () => Promise<void>;
};

export type FakeLinkedInPage = {
  id: number;
  name: string;
  vanityName: string;
  role: "ADMINISTRATOR" | "CONTENT_ADMINISTRATOR" | "ANALYST" | "CURATOR";
  state: "APPROVED" | "REQUESTED" | "REVOKED";
};

const POSTING_ROLES = new Set(["ADMINISTRATOR", "CONTENT_ADMINISTRATOR"]);

const fail = (res: http.ServerResponse, status: number, code: string, message: string, headers = {}) => {
  res.writeHead(status, { "Content-Type": "application/json", ...headers });
  res.end(JSON.stringify({ status, serviceErrorCode: status * 100, code, message }));
};

const REVOKED = [
  "REVOKED_ACCESS_TOKEN",
  "The token used in the request has been revoked by the user",
] as const;

const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};
const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => ENTITIES[char]);

/** LinkedIn's little-text format back to plain text: hashtag templates, then escapes. */
export const plainCommentary = (commentary: string) =>
  commentary.replace(/\{hashtag\|\\#\|([^}]+)\}/g, "#$1").replace(/\\(.)/g, "$1");

export async function startFakeLinkedIn(options: { port?: number } = {}): Promise<FakeLinkedIn> {
  const clientId = "fake-linkedin-client";
  const clientSecret = `fake-linkedin-secret-${randomBytes(6).toString("hex")}`;
  const member = { sub: "Xy7Qm2LkP9", name: "Ada Marketer", picture: "" };
  const pages: FakeLinkedInPage[] = [
    {
      id: 2414183,
      name: "Northwind Coffee",
      vanityName: "northwind-coffee",
      role: "ADMINISTRATOR",
      state: "APPROVED",
    },
    {
      id: 5021977,
      name: "Northwind Careers",
      vanityName: "northwind-careers",
      role: "ANALYST",
      state: "APPROVED",
    },
    {
      id: 7730012,
      name: "Northwind Roastery",
      vanityName: "northwind-roastery",
      role: "CONTENT_ADMINISTRATOR",
      state: "REQUESTED",
    },
  ];
  const requestedScopes: string[] = [];
  const codes = new Map<string, { redirectUri: string; at: number; scopes: string[] }>();
  const tokens = new Map<
    string,
    { kind: "access" | "refresh"; expiresAt: number; revoked: boolean; scopes: string[] }
  >();
  const images = new Map<string, { uploaded: boolean; bytes: number; contentType: string }>();
  const posts: FakeLinkedInPost[] = [];
  const videos = new Map<string, FakeLinkedInVideo>();
  const partPuts: FakeLinkedIn["partPuts"] = [];
  const grants: FakeLinkedIn["grants"] = [];
  const insights = createFakeInsights();
  const behavior: FakeLinkedInBehavior = {
    rateLimit: { count: 0, retryAfterSeconds: 1 },
    serverError: { count: 0, status: 503 },
    recordThenFail: { count: 0, status: 502 },
    finderError: { count: 0, status: 503 },
    tokenLifetimeSeconds: 5_184_000,
    videoPartBytes: 4 * 1024 * 1024,
    videoPartError: { count: 0, status: 500 },
    videoPartLatencyMs: 0,
    videoProcessing: { reads: 1, fail: null },
    avatarGone: false,
    revokeOnNextPost: false,
  };
  let nextPost = 7_100_000_000_000_000_000n;
  let nextImage = 1;
  let nextVideo = 1;

  const issue = (scopes: string[]) => {
    const access = `AQV${randomBytes(24).toString("base64url")}`;
    const refresh = `AQX${randomBytes(24).toString("base64url")}`;
    tokens.set(access, {
      kind: "access",
      expiresAt: Date.now() + behavior.tokenLifetimeSeconds * 1000,
      revoked: false,
      scopes,
    });
    tokens.set(refresh, { kind: "refresh", expiresAt: Date.now() + 31_536_000_000, revoked: false, scopes });
    return {
      access_token: access,
      expires_in: behavior.tokenLifetimeSeconds,
      refresh_token: refresh,
      refresh_token_expires_in: 31_536_000,
      scope: scopes.join(","),
    };
  };

  /** The request's access token, when it is one that works. */
  const bearer = (req: http.IncomingMessage) => {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1] ?? "";
    const known = tokens.get(token);
    return known && known.kind === "access" && !known.revoked && known.expiresAt > Date.now()
      ? known
      : undefined;
  };

  /** The analytics calls (see the header); true when it answered. */
  const readAnalytics = async (
    req: http.IncomingMessage,
    res: http.ServerResponse,
    url: URL,
    scopes: string[],
  ): Promise<boolean> => {
    const path = url.pathname;
    const isAnalytics =
      req.method === "GET" &&
      (path === "/rest/memberCreatorPostAnalytics" ||
        path === "/rest/organizationalEntityShareStatistics" ||
        path.startsWith("/rest/socialMetadata/") ||
        path.startsWith("/rest/networkSizes/"));
    if (!isAnalytics) return false;
    await insights.wait();
    if (insights.throttled()) {
      fail(
        res,
        429,
        "TOO_MANY_REQUESTS",
        "Resource level throttle limit for calls to this resource is reached.",
        {
          "Retry-After": String(insights.behavior.rateLimit.retryAfterSeconds),
        },
      );
      return true;
    }
    const denied = (what: string) => {
      fail(res, 403, "ACCESS_DENIED", `Not enough permissions to access: ${what}`);
      return true;
    };
    const postOf = (urn: string | null) => posts.find((post) => post.urn === urn);
    if (path === "/rest/memberCreatorPostAnalytics") {
      if (insights.behavior.denied || !scopes.includes("r_member_postAnalytics"))
        return denied("memberCreatorPostAnalytics.FINDER-entity");
      const entity = /^\((?:share|ugc):(.+)\)$/.exec(url.searchParams.get("entity") ?? "")?.[1];
      const post = postOf(entity ? decodeURIComponent(entity) : null);
      if (url.searchParams.get("q") !== "entity" || !post) {
        fail(res, 400, "INVALID_PARAMS", "entity must be (share:urn) or (ugc:urn) of the member's post");
        return true;
      }
      const queryType = url.searchParams.get("queryType") ?? "";
      const values = insights.values(post.urn);
      const count = values
        ? {
            IMPRESSION: values.views,
            MEMBERS_REACHED: values.reach,
            REACTION: values.likes,
            COMMENT: values.comments,
            RESHARE: values.shares,
          }[queryType]
        : null;
      if (count === undefined) {
        fail(res, 400, "INVALID_PARAMS", `Invalid queryType ${queryType}`);
        return true;
      }
      sendJson(res, 200, {
        paging: { start: 0, count: 10, links: [] },
        elements:
          count === null
            ? []
            : [
                {
                  count,
                  metricType: {
                    "com.linkedin.adsexternalapi.memberanalytics.v1.CreatorPostAnalyticsMetricTypeV1":
                      queryType,
                  },
                },
              ],
      });
      return true;
    }
    if (path === "/rest/organizationalEntityShareStatistics") {
      if (insights.behavior.denied || !scopes.includes("r_organization_admin"))
        return denied("organizationalEntityShareStatistics");
      const organization = url.searchParams.get("organizationalEntity");
      const urns = /^List\((.*)\)$/.exec(
        url.searchParams.get("shares") ?? url.searchParams.get("ugcPosts") ?? "",
      )?.[1];
      const elements = (urns ? urns.split(",") : [])
        .map((urn) => postOf(decodeURIComponent(urn)))
        .filter((post) => post && post.author === organization)
        .flatMap((post) => {
          const values = post ? insights.values(post.urn) : null;
          if (!post || !values) return [];
          const interactions = values.likes + values.comments + values.shares;
          return [
            {
              organizationalEntity: organization,
              share: post.urn,
              totalShareStatistics: {
                impressionCount: values.views,
                uniqueImpressionsCount: values.reach,
                clickCount: values.saved,
                likeCount: values.likes,
                commentCount: values.comments,
                shareCount: values.shares,
                engagement: (interactions + values.saved) / values.views,
              },
            },
          ];
        });
      sendJson(res, 200, { paging: { start: 0, count: 10, links: [] }, elements });
      return true;
    }
    if (path.startsWith("/rest/networkSizes/")) {
      const organization = decodeURIComponent(path.slice("/rest/networkSizes/".length));
      if (!pages.some((page) => `urn:li:organization:${page.id}` === organization))
        return denied("networkSizes");
      sendJson(res, 200, { firstDegreeSize: insights.followers() });
      return true;
    }
    const post = postOf(decodeURIComponent(path.slice("/rest/socialMetadata/".length)));
    if (!post) {
      fail(res, 404, "NOT_FOUND", "No such entity");
      return true;
    }
    const values = insights.values(post.urn);
    sendJson(res, 200, {
      entity: post.urn,
      reactionSummaries: values ? { LIKE: { reactionType: "LIKE", count: values.likes } } : {},
      commentSummary: { count: values?.comments ?? 0, topLevelCount: values?.comments ?? 0 },
      commentsState: "OPEN",
    });
    return true;
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse, url: URL) => {
    if (url.pathname === "/__fake/behavior" && req.method === "POST") {
      Object.assign(behavior, JSON.parse((await readBody(req)).toString() || "{}"));
      return sendJson(res, 200, behavior);
    }
    if (url.pathname === "/__fake/state") {
      const videoList = [...videos.values()].map(({ parts, assembled, ...video }) => ({
        ...video,
        parts: parts.length,
        assembledBytes: assembled?.length ?? null,
      }));
      return sendJson(res, 200, { posts, videos: videoList, partPuts, grants, behavior });
    }
    if (url.pathname === "/__fake/insights" && req.method === "POST")
      return sendJson(res, 200, insights.control(JSON.parse((await readBody(req)).toString() || "{}")));
    if (url.pathname === "/avatar.png") {
      if (behavior.avatarGone) return sendJson(res, 404, { error: "expired" });
      // A 1×1 PNG.
      res.writeHead(200, { "Content-Type": "image/png" });
      return res.end(
        Buffer.from(
          "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYPj/HwADAgH/eL9GtQAAAABJRU5ErkJggg==",
          "base64",
        ),
      );
    }

    if (url.pathname === "/oauth/v2/authorization" && req.method === "GET") {
      const redirectUri = url.searchParams.get("redirect_uri") ?? "";
      const state = url.searchParams.get("state") ?? "";
      if (url.searchParams.get("client_id") !== clientId || url.searchParams.get("response_type") !== "code")
        return fail(res, 400, "INVALID_REQUEST", "The passed in client_id is invalid");
      if (!/^https?:\/\//.test(redirectUri))
        return fail(res, 400, "INVALID_REQUEST", "The redirect_uri does not match the registered value");
      const code = `AQT${randomBytes(18).toString("base64url")}`;
      const scope = url.searchParams.get("scope") ?? "";
      requestedScopes.push(scope);
      codes.set(code, { redirectUri, at: Date.now(), scopes: scope.split(" ").filter(Boolean) });
      const back = new URL(redirectUri);
      back.searchParams.set("code", code);
      back.searchParams.set("state", state);
      const cancel = new URL(redirectUri);
      cancel.searchParams.set("error", "user_cancelled_authorize");
      cancel.searchParams.set("error_description", "The user cancelled the authorization");
      cancel.searchParams.set("state", state);
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
      return res.end(`<!doctype html><html lang="en"><head><title>LinkedIn (fake): authorize</title></head>
<body><main><h1>Brand Studio would like to access your LinkedIn account</h1>
<p>Signed in as ${escapeHtml(member.name)}. Scopes: ${escapeHtml(url.searchParams.get("scope") ?? "")}</p>
<p><a id="allow" href="${escapeHtml(back.toString())}">Allow</a>
 <a id="cancel" href="${escapeHtml(cancel.toString())}">Cancel</a></p></main></body></html>`);
    }

    if (url.pathname === "/oauth/v2/accessToken" && req.method === "POST") {
      const form = new URLSearchParams((await readBody(req)).toString());
      const grantType = form.get("grant_type") ?? "";
      const answer = (status: number, body: unknown) => {
        grants.push({ grantType, status });
        return sendJson(res, status, body);
      };
      if (form.get("client_id") !== clientId || form.get("client_secret") !== clientSecret)
        return answer(401, { error: "invalid_client", error_description: "Client authentication failed" });
      if (grantType === "authorization_code") {
        const code = codes.get(form.get("code") ?? "");
        codes.delete(form.get("code") ?? "");
        if (!code || Date.now() - code.at > 30 * 60_000)
          return answer(400, {
            error: "invalid_request",
            error_description: "Unable to retrieve access token: authorization code not found",
          });
        if (code.redirectUri !== form.get("redirect_uri"))
          return answer(400, {
            error: "invalid_redirect_uri",
            error_description:
              "Unable to retrieve access token: appid/redirect uri/code verifier does not match",
          });
        return answer(200, issue(code.scopes));
      }
      if (grantType === "refresh_token") {
        const known = tokens.get(form.get("refresh_token") ?? "");
        if (known?.kind !== "refresh" || known.revoked)
          return answer(400, {
            error: "invalid_request",
            error_description:
              "The provided authorization grant or refresh token is invalid, expired or revoked",
          });
        return answer(200, issue(known.scopes));
      }
      return answer(400, { error: "unsupported_grant_type", error_description: "Unsupported grant type" });
    }

    if (url.pathname.startsWith("/upload/") && req.method === "PUT") {
      const image = images.get(decodeURIComponent(url.pathname.slice("/upload/".length)));
      if (!image) return fail(res, 404, "NOT_FOUND", "Upload URL not found");
      if (!bearer(req)) return fail(res, 401, ...REVOKED);
      const body = await readBody(req);
      Object.assign(image, {
        uploaded: true,
        bytes: body.length,
        contentType: req.headers["content-type"] ?? "",
      });
      res.writeHead(201);
      return res.end();
    }

    const thumbnailPath = /^\/dms-uploads\/video\/([^/]+)\/thumbnail$/.exec(url.pathname);
    if (thumbnailPath && req.method === "PUT") {
      const video = videos.get(`urn:li:video:${thumbnailPath[1]}`);
      const body = await readBody(req);
      if (!video?.thumbnail || url.searchParams.get("sig") !== video.thumbnail.sig)
        return fail(res, 403, "SIGNATURE_MISMATCH", "The upload URL is not valid");
      if (!bearer(req)) return fail(res, 401, ...REVOKED);
      const contentType = req.headers["content-type"] ?? "";
      if (!["image/jpeg", "image/png"].includes(contentType) || body.length === 0)
        return fail(res, 400, "INVALID_THUMBNAIL", "A thumbnail is a JPEG or PNG image");
      Object.assign(video.thumbnail, { bytes: body, contentType });
      res.writeHead(201);
      return res.end();
    }

    const partPath = /^\/dms-uploads\/video\/([^/]+)\/part\/(\d+)$/.exec(url.pathname);
    if (partPath && req.method === "PUT") {
      const video = videos.get(`urn:li:video:${partPath[1]}`);
      const index = Number(partPath[2]);
      const part = video?.parts[index];
      const body = await readBody(req);
      if (behavior.videoPartLatencyMs > 0)
        await new Promise((resolve) => setTimeout(resolve, behavior.videoPartLatencyMs));
      const answer = (status: number, code: string, message: string, headers = {}) => {
        partPuts.push({ urn: video?.urn ?? "", part: index, status });
        if (status < 300) {
          res.writeHead(status, headers);
          return res.end();
        }
        return fail(res, status, code, message);
      };
      if (!video || !part || url.searchParams.get("sig") !== part.sig)
        return answer(403, "SIGNATURE_MISMATCH", "The upload URL is not valid");
      if (!bearer(req)) return answer(401, ...REVOKED);
      if (behavior.videoPartError.count > 0) {
        behavior.videoPartError.count--;
        return answer(behavior.videoPartError.status, "INTERNAL_SERVER_ERROR", "Internal Server Error");
      }
      if (req.headers["content-type"] !== "application/octet-stream")
        return answer(400, "INVALID_CONTENT_TYPE", "Parts are application/octet-stream");
      const expected = part.lastByte - part.firstByte + 1;
      if (body.length !== expected)
        return answer(400, "INVALID_PART", `Part ${index} must have ${expected} bytes, got ${body.length}`);
      part.bytes = body;
      part.etag = `/ambry-video/signedId/${randomBytes(12).toString("base64url")}`;
      return answer(200, "", "", { ETag: part.etag });
    }

    if (url.pathname === "/v2/userinfo" && req.method === "GET") {
      if (!bearer(req)) return fail(res, 401, ...REVOKED);
      return sendJson(res, 200, {
        sub: member.sub,
        name: member.name,
        given_name: member.name.split(" ")[0],
        family_name: member.name.split(" ").slice(1).join(" "),
        picture: member.picture,
        locale: { country: "US", language: "en" },
      });
    }

    if (url.pathname.startsWith("/rest/")) {
      if (behavior.revokeOnNextPost && req.method === "POST") {
        behavior.revokeOnNextPost = false;
        for (const known of tokens.values()) known.revoked = true;
      }
      const token = bearer(req);
      if (!token) return fail(res, 401, ...REVOKED);
      const version = req.headers["linkedin-version"] as string | undefined;
      const restli = req.headers["x-restli-protocol-version"] as string | undefined;
      if (!version || !/^\d{6}$/.test(version))
        return fail(
          res,
          426,
          "VERSION_MISSING",
          "A version must be present. Please specify a version by adding the LinkedIn-Version header.",
        );
      if (restli !== "2.0.0")
        return fail(res, 400, "INVALID_PROTOCOL", "X-Restli-Protocol-Version 2.0.0 is required");
      const body = JSON.parse((await readBody(req)).toString() || "{}");
      const person = `urn:li:person:${member.sub}`;
      /** Whom this token may post and upload as: the member, and pages where the member has a posting role. */
      const mayActAs = (urn: unknown) =>
        urn === person ||
        (token.scopes.includes("w_organization_social") &&
          pages.some(
            (page) =>
              urn === `urn:li:organization:${page.id}` &&
              page.state === "APPROVED" &&
              POSTING_ROLES.has(page.role),
          ));
      const analytics = await readAnalytics(req, res, url, token.scopes);
      if (analytics) return;
      if (url.pathname.startsWith("/rest/organization") && !token.scopes.includes("r_organization_admin"))
        return fail(res, 403, "ACCESS_DENIED", `Not enough permissions to access: GET ${url.pathname}`);
      if (url.pathname === "/rest/organizationAcls" && req.method === "GET") {
        if (url.searchParams.get("q") !== "roleAssignee")
          return fail(res, 400, "ILLEGAL_ARGUMENT", "Unsupported finder; use q=roleAssignee");
        const role = url.searchParams.get("role");
        const state = url.searchParams.get("state");
        return sendJson(res, 200, {
          paging: { start: 0, count: 10, links: [] },
          elements: pages
            .filter((page) => (!role || page.role === role) && (!state || page.state === state))
            .map((page) => ({
              roleAssignee: person,
              state: page.state,
              role: page.role,
              organization: `urn:li:organization:${page.id}`,
            })),
        });
      }
      const organization = /^\/rest\/organizations\/(\d+)$/.exec(url.pathname);
      if (organization && req.method === "GET") {
        const page = pages.find((item) => String(item.id) === organization[1]);
        if (!page) return fail(res, 404, "NOT_FOUND", `Organization ${organization[1]} not found`);
        return sendJson(res, 200, {
          id: page.id,
          localizedName: page.name,
          vanityName: page.vanityName,
          name: { localized: { en_US: page.name }, preferredLocale: { country: "US", language: "en" } },
        });
      }
      if (url.pathname === "/rest/images" && url.searchParams.get("action") === "initializeUpload") {
        if (!mayActAs(body.initializeUploadRequest?.owner))
          return fail(res, 403, "ACCESS_DENIED", "Not enough permissions to upload for this owner");
        const id = `D4E10AQ${String(nextImage++).padStart(8, "0")}`;
        images.set(id, { uploaded: false, bytes: 0, contentType: "" });
        return sendJson(res, 200, {
          value: {
            uploadUrlExpiresAt: Date.now() + 3_600_000,
            uploadUrl: `${fake.url}/upload/${id}`,
            image: `urn:li:image:${id}`,
          },
        });
      }
      if (url.pathname === "/rest/videos" && url.searchParams.get("action") === "initializeUpload") {
        const request = body.initializeUploadRequest ?? {};
        if (!mayActAs(request.owner))
          return fail(res, 403, "ACCESS_DENIED", "Accessing this video resource is forbidden.");
        const size = request.fileSizeBytes;
        if (!Number.isSafeInteger(size) || size <= 0)
          return fail(res, 400, "INVALID_FIELD", "fileSizeBytes must be a positive integer");
        if (typeof request.uploadCaptions !== "boolean" || typeof request.uploadThumbnail !== "boolean")
          return fail(res, 400, "MISSING_FIELD", "uploadCaptions and uploadThumbnail are required");
        const id = `D5610AQ${String(nextVideo++).padStart(8, "0")}`;
        const parts: FakeLinkedInVideo["parts"] = [];
        for (let first = 0; first < size; first += behavior.videoPartBytes) {
          const last = Math.min(size, first + behavior.videoPartBytes) - 1;
          parts.push({
            firstByte: first,
            lastByte: last,
            sig: randomBytes(16).toString("hex"),
            etag: null,
            bytes: null,
          });
        }
        const video: FakeLinkedInVideo = {
          urn: `urn:li:video:${id}`,
          owner: request.owner,
          fileSizeBytes: size,
          uploadToken: randomBytes(8).toString("hex"),
          parts,
          status: "WAITING_UPLOAD",
          processing: { reads: 0, fail: null },
          assembled: null,
          thumbnail: request.uploadThumbnail
            ? { sig: randomBytes(16).toString("hex"), bytes: null, contentType: null }
            : null,
        };
        videos.set(video.urn, video);
        return sendJson(res, 200, {
          value: {
            uploadUrlsExpireAt: Date.now() + 86_400_000,
            video: video.urn,
            uploadInstructions: parts.map((part, index) => ({
              uploadUrl: `${fake.url}/dms-uploads/video/${id}/part/${index}?sig=${part.sig}`,
              firstByte: part.firstByte,
              lastByte: part.lastByte,
            })),
            uploadToken: video.uploadToken,
            ...(video.thumbnail
              ? {
                  thumbnailUploadUrl: `${fake.url}/dms-uploads/video/${id}/thumbnail?sig=${video.thumbnail.sig}`,
                }
              : {}),
          },
        });
      }
      if (url.pathname === "/rest/videos" && url.searchParams.get("action") === "finalizeUpload") {
        const request = body.finalizeUploadRequest ?? {};
        const video = videos.get(String(request.video));
        if (!video || !mayActAs(video.owner))
          return fail(res, 404, "NOT_FOUND", `Video ${request.video} not found`);
        if (video.status !== "WAITING_UPLOAD")
          return fail(res, 400, "INVALID_STATE", `Video ${video.urn} is ${video.status}, not WAITING_UPLOAD`);
        if (request.uploadToken !== video.uploadToken)
          return fail(res, 400, "INVALID_UPLOAD_TOKEN", "The upload token does not match the video");
        const etags = video.parts.map((part) => part.etag);
        if (
          !Array.isArray(request.uploadedPartIds) ||
          etags.some((etag) => etag === null) ||
          JSON.stringify(request.uploadedPartIds) !== JSON.stringify(etags)
        )
          return fail(
            res,
            400,
            "INVALID_PART_IDS",
            "uploadedPartIds must be every part's ETag, in part order",
          );
        if (video.thumbnail && !video.thumbnail.bytes)
          return fail(
            res,
            400,
            "MISSING_THUMBNAIL",
            "The thumbnail asked for at initializeUpload was not uploaded",
          );
        video.assembled = Buffer.concat(video.parts.map((part) => part.bytes as Buffer));
        video.status = "PROCESSING";
        video.processing = { ...behavior.videoProcessing };
        res.writeHead(200);
        return res.end();
      }
      if (url.pathname.startsWith("/rest/videos/") && req.method === "GET") {
        const video = videos.get(decodeURIComponent(url.pathname.slice("/rest/videos/".length)));
        if (!video || !mayActAs(video.owner)) return fail(res, 404, "NOT_FOUND", "Video not found");
        if (video.status === "PROCESSING") {
          if (video.processing.reads > 0) video.processing.reads--;
          else video.status = video.processing.fail ? "PROCESSING_FAILED" : "AVAILABLE";
        }
        return sendJson(res, 200, {
          id: video.urn,
          owner: video.owner,
          status: video.status,
          ...(video.status === "PROCESSING_FAILED" ? { processingFailureReason: video.processing.fail } : {}),
        });
      }
      if (url.pathname === "/rest/posts" && req.method === "GET") {
        // The Posts API's author finder: the author's posts, most recently modified first.
        if (url.searchParams.get("q") !== "author" || req.headers["x-restli-method"] !== "FINDER")
          return fail(
            res,
            400,
            "ILLEGAL_ARGUMENT",
            "Unsupported finder; use q=author with X-RestLi-Method: FINDER",
          );
        if (behavior.finderError.count > 0) {
          behavior.finderError.count--;
          return fail(res, behavior.finderError.status, "INTERNAL_SERVER_ERROR", "Internal Server Error");
        }
        const author = url.searchParams.get("author");
        if (!mayActAs(author))
          return fail(res, 403, "ACCESS_DENIED", "Not enough permissions to read this author's posts");
        const count = Math.min(Number(url.searchParams.get("count") ?? 10) || 10, 100);
        const elements = posts
          .filter((post) => post.author === author)
          .reverse()
          .slice(0, count)
          .map((post) => ({
            id: post.urn,
            author: post.author,
            commentary: post.commentary,
            visibility: "PUBLIC",
            lifecycleState: "PUBLISHED",
            createdAt: post.at,
            lastModifiedAt: post.at,
            publishedAt: post.at,
          }));
        return sendJson(res, 200, { paging: { start: 0, count, links: [] }, elements });
      }
      if (url.pathname === "/rest/posts" && req.method === "POST") {
        if (behavior.rateLimit.count > 0) {
          behavior.rateLimit.count--;
          return fail(
            res,
            429,
            "TOO_MANY_REQUESTS",
            "Resource level throttle limit for calls to this resource is reached.",
            {
              "Retry-After": String(behavior.rateLimit.retryAfterSeconds),
            },
          );
        }
        if (behavior.serverError.count > 0) {
          behavior.serverError.count--;
          return fail(res, behavior.serverError.status, "INTERNAL_SERVER_ERROR", "Internal Server Error");
        }
        if (!mayActAs(body.author))
          return fail(res, 403, "ACCESS_DENIED", "Not enough permissions to post as this author");
        const author = String(body.author);
        const commentary = String(body.commentary ?? "");
        if (plainCommentary(commentary).length > 3000)
          return fail(res, 422, "UNPROCESSABLE_ENTITY", "commentary is longer than 3000 characters");
        let usedVideo: FakeLinkedInPost["video"] = null;
        const media = body.content?.media as { id?: string; title?: string } | undefined;
        if (String(media?.id).startsWith("urn:li:video:")) {
          const video = videos.get(String(media?.id));
          if (video?.status !== "AVAILABLE")
            return fail(
              res,
              400,
              "INVALID_CONTENT",
              `Video ${media?.id} is not AVAILABLE (${video?.status})`,
            );
          usedVideo = {
            urn: video.urn,
            title: String(media?.title ?? ""),
            bytes: video.assembled?.length ?? 0,
          };
        }
        const refs: { id: string; altText?: string }[] = usedVideo
          ? []
          : body.content?.media
            ? [body.content.media]
            : (body.content?.multiImage?.images ?? []);
        const used: FakeLinkedInPost["images"] = [];
        for (const ref of refs) {
          const image = images.get(String(ref.id).replace("urn:li:image:", ""));
          if (!image?.uploaded) return fail(res, 400, "INVALID_CONTENT", `Image ${ref.id} was not uploaded`);
          used.push({
            urn: ref.id,
            bytes: image.bytes,
            contentType: image.contentType,
            altText: ref.altText ?? "",
          });
        }
        const urn = `urn:li:share:${nextPost++}`;
        insights.track(urn);
        posts.push({
          urn,
          author,
          commentary,
          images: used,
          video: usedVideo,
          headers: { version, restli },
          at: Date.now(),
        });
        if (behavior.recordThenFail.count > 0) {
          behavior.recordThenFail.count--;
          return fail(res, behavior.recordThenFail.status, "BAD_GATEWAY", "Bad Gateway");
        }
        res.writeHead(201, { "x-restli-id": urn, "Content-Type": "application/json" });
        return res.end();
      }
    }
    return fail(res, 404, "NOT_FOUND", `No resource at ${req.method} ${url.pathname}`);
  };

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    try {
      await handle(req, res, url);
    } catch (error) {
      if (!res.headersSent) fail(res, 500, "INTERNAL_SERVER_ERROR", (error as Error).message);
    }
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const fake: FakeLinkedIn = {
    url: `http://127.0.0.1:${port}`,
    clientId,
    clientSecret,
    behavior,
    posts,
    videos,
    partPuts,
    grants,
    member,
    pages,
    requestedScopes,
    issuedTokens: () => [...tokens.keys()],
    revokeAll() {
      for (const token of tokens.values()) token.revoked = true;
    },
    insights,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  member.picture = `${fake.url}/avatar.png`;
  return fake;
}
