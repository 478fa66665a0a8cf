import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import { createFakeInsights, type FakeInsights } from "./fake-insights";
import { listen, readBody, sampleMp4, sendJson } from "./fake-provider-kit";

/**
 * A local server that speaks Instagram's documented APIs ("Instagram API with Instagram Login") as
 * publishing uses them, serving the three hosts (INSTAGRAM_AUTH_BASE_URL, INSTAGRAM_TOKEN_BASE_URL and
 * INSTAGRAM_GRAPH_BASE_URL point here); Graph paths may carry a version (`/v23.0/…`):
 * - `GET /oauth/authorize` — an HTML consent page ("Allow" / "Cancel") that sends the browser back to
 *   `redirect_uri` with `code` and `state` (or `error=access_denied&error_reason=user_denied`); "Grant
 *   publishing only" grants all but instagram_business_manage_insights;
 * - `POST /oauth/access_token` — form body → `{data: [{access_token, user_id, permissions}]}` (an hour;
 *   `permissions`: what was allowed, never instagram_business_manage_insights while `insights.behavior.denied`);
 * - `GET /access_token?grant_type=ig_exchange_token&client_secret=` → a long-lived token (60 days), and
 *   `GET /refresh_access_token?grant_type=ig_refresh_token` → a new one;
 * - `GET /me?fields=user_id,username,name,profile_picture_url`;
 * - `POST /{ig-user-id}/media` (`image_url` [+ `is_carousel_item`], `media_type=REELS` + `video_url`,
 *   `media_type=CAROUSEL` + `children`, or `media_type=STORIES` + `image_url` or `video_url`, no caption): a
 *   container. A published story is a post of mediaType STORY, which the account's media list leaves out. The fake FETCHES the URL, as Instagram does; the
 *   container is IN_PROGRESS for `pollsUntilFinished` polls, then FINISHED, or ERROR when the media could not
 *   be fetched (or is not a JPEG / an MP4) or `failNextContainer` is set;
 * - `GET /{container-id}?fields=status_code,status`;
 * - `POST /{ig-user-id}/media_publish` (`creation_id`) → the media id; at most 50 per 24 h
 *   (code 9, subcode 2207042); a container publishes once;
 * - `GET /{media-id}?fields=permalink`, `GET /{ig-user-id}/content_publishing_limit`,
 *   `GET /{ig-user-id}/media?fields=id,caption,permalink,timestamp&limit=` (newest first).
 * `access_token` is read from the query or the form body. Errors: `{error: {message, type, code,
 * error_subcode, fbtrace_id}}`; a refused token is code 190. Knobs (`behavior`, also `POST /__fake/behavior`):
 * the next N media_publish calls answer 429 (Retry-After) or 5xx, or post and answer 5xx anyway
 * (`failAfterPublish`), or are never answered and post nothing (`dropPublish`); `priorPosts` adds to the 24-hour count;
 * `tokenLifetimeSeconds`; `revokeAll()`, or `revokeOnNextPost` (revoked as the next container is made). `posts` records every post made (also `GET /__fake/state`).
 * Insights (Instagram API with Instagram Login): `GET /{media-id}/insights?metric=views,reach,likes,comments,
 * shares,saved,total_interactions` → `{data: [{name, period: "lifetime", values: [{value}], title, id}]}`;
 * an empty `data` for a fresh post (no data yet); `impressions`, `plays`, `video_views` answer the
 * deprecation error (#100); without the insights permission (`insights.behavior.denied`) error #10; a
 * throttled call error #4 with `X-Business-Use-Case-Usage` (also on every insights answer, from
 * `usagePercent`). `GET /me?fields=followers_count`. `insights` grows the numbers (see fake-insights.ts).
 */

export type FakeInstagramPost = {
  id: string;
  igUserId: string;
  mediaType: "IMAGE" | "CAROUSEL_ALBUM" | "REELS" | "STORY";
  caption: string;
  media: { url: string; bytes: number; contentType: string }[];
  containerId: string;
  at: number;
};

export type FakeInstagramBehavior = {
  rateLimit: { count: number; retryAfterSeconds: number };
  serverError: { count: number; status: number };
  /** The next N media_publish calls post, then answer this 5xx anyway (the outcome a client cannot know). */
  failAfterPublish: { count: number; status: number };
  /** media_publish records the post at once and answers this much later (a worker may die in between). */
  publishLatencyMs: number;
  /** The next N media_publish calls are lost on the way: never answered, nothing posted. */
  dropPublish: number;
  /** Status polls that answer IN_PROGRESS before FINISHED. */
  pollsUntilFinished: number;
  /** The next container ends ERROR with this message. */
  failNextContainer: string | null;
  /** Posts made elsewhere in the last 24 hours, counted against the limit. */
  priorPosts: number;
  /** expires_in of the long-lived tokens it issues. */
  tokenLifetimeSeconds: number;
  /** The next container creation revokes every token first (the user revoked access just as a post went out). */
  revokeOnNextPost: boolean;
  /** The profile picture's link no longer answers (404), as a CDN link does once it expires. */
  avatarGone: boolean;
};

type Container = {
  id: string;
  igUserId: string;
  mediaType: "IMAGE" | "CAROUSEL" | "REELS" | "STORIES";
  carouselItem: boolean;
  caption: string;
  children: string[];
  media: { url: string; bytes: number; contentType: string }[];
  fetched: boolean;
  error: string | null;
  polls: number;
  published: boolean;
};

export type FakeInstagram = {
  url: string;
  appId: string;
  appSecret: string;
  behavior: FakeInstagramBehavior;
  posts: FakeInstagramPost[];
  account: { userId: string; username: string; name: string; profilePictureUrl: string };
  /** Every call: `${method} ${path}` (no query), so a test can see what was sent. */
  calls: string[];
  grants: { grantType: string; status: number }[];
  issuedTokens: () => string[];
  /** A long-lived token, as the OAuth flow would end with (for benches that skip the consent page). */
  issueLongLivedToken: () => string;
  revokeAll: () => void;
  insights: FakeInsights;
  close: () => Promise<void>;
};

/** The server's environment that points it at this fake (all three Instagram hosts). */
export const fakeInstagramEnv = (fake: Pick<FakeInstagram, "url" | "appId" | "appSecret">) => ({
  INSTAGRAM_APP_ID: fake.appId,
  INSTAGRAM_APP_SECRET: fake.appSecret,
  INSTAGRAM_AUTH_BASE_URL: fake.url,
  INSTAGRAM_TOKEN_BASE_URL: fake.url,
  INSTAGRAM_GRAPH_BASE_URL: fake.url,
});

const LIMIT = 50;

function permalinkOf(post: FakeInstagramPost) {
  const shortcode = Buffer.from(post.id).toString("base64url").slice(0, 11);
  if (post.mediaType === "STORY") return `https://www.instagram.com/stories/acme_roasters/${post.id}/`;
  return `https://www.instagram.com/${post.mediaType === "REELS" ? "reel" : "p"}/${shortcode}/`;
}
const DAY_MS = 86_400_000;

const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};
const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => ENTITIES[char]);

function graphError(
  res: http.ServerResponse,
  status: number,
  error: { message: string; type?: string; code: number; error_subcode?: number },
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { "Content-Type": "application/json", ...headers });
  res.end(
    JSON.stringify({
      error: {
        type: "OAuthException",
        ...error,
        fbtrace_id: `A${randomBytes(8).toString("base64url")}`,
      },
    }),
  );
}

const invalidToken = (res: http.ServerResponse) =>
  graphError(res, 400, {
    message:
      "Error validating access token: The session has been invalidated because the user changed their password or Facebook has changed the session for security reasons.",
    code: 190,
    error_subcode: 460,
  });

export async function startFakeInstagram(options: { port?: number } = {}): Promise<FakeInstagram> {
  const appId = "990001112223334";
  const appSecret = `fake-instagram-secret-${randomBytes(6).toString("hex")}`;
  const account = {
    userId: "17841400000000042",
    username: "acme_roasters",
    name: "Acme Roasters",
    profilePictureUrl: "",
  };
  const codes = new Map<string, { redirectUri: string; at: number; scopes: string[] }>();
  const tokens = new Map<string, { kind: "short" | "long"; expiresAt: number; revoked: boolean }>();
  const containers = new Map<string, Container>();
  const posts: FakeInstagramPost[] = [];
  const calls: string[] = [];
  const grants: FakeInstagram["grants"] = [];
  const insights = createFakeInsights();
  const behavior: FakeInstagramBehavior = {
    rateLimit: { count: 0, retryAfterSeconds: 1 },
    serverError: { count: 0, status: 500 },
    failAfterPublish: { count: 0, status: 502 },
    publishLatencyMs: 0,
    dropPublish: 0,
    pollsUntilFinished: 1,
    failNextContainer: null,
    priorPosts: 0,
    tokenLifetimeSeconds: 5_184_000,
    avatarGone: false,
    revokeOnNextPost: false,
  };
  let nextId = 18_000_000_000_000_000n;
  const newId = () => String(nextId++);

  const issue = (kind: "short" | "long") => {
    const token = `IGAA${randomBytes(30).toString("base64url")}`;
    const lifetime = kind === "short" ? 3600 : behavior.tokenLifetimeSeconds;
    tokens.set(token, { kind, expiresAt: Date.now() + lifetime * 1000, revoked: false });
    return { token, lifetime };
  };
  const valid = (token: string | null, kind?: "short" | "long") => {
    const known = tokens.get(token ?? "");
    return Boolean(known && !known.revoked && known.expiresAt > Date.now() && (!kind || known.kind === kind));
  };
  const usedToday = () => behavior.priorPosts + posts.filter((post) => post.at > Date.now() - DAY_MS).length;

  /** Instagram cURLs the media: fetch it, keep its size and type, or fail the container. */
  const fetchMedia = async (container: Container, url: string, want: "image" | "video") => {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
      const bytes = Buffer.from(await response.arrayBuffer());
      const contentType = response.headers.get("content-type") ?? "";
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const ok =
        want === "image"
          ? contentType.startsWith("image/jpeg") && bytes[0] === 0xff && bytes[1] === 0xd8
          : contentType.startsWith("video/mp4") && bytes.subarray(4, 8).toString() === "ftyp";
      if (!ok) throw new Error(`unsupported ${contentType || "content"}`);
      container.media.push({ url, bytes: bytes.length, contentType });
    } catch (error) {
      container.error = `ERROR: Media download has failed. The media URI doesn't meet our requirements (${(error as Error).message}).`;
    } finally {
      container.fetched = true;
    }
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse, url: URL) => {
    if (url.pathname === "/__fake/behavior" && req.method === "POST") {
      Object.assign(behavior, JSON.parse((await readBody(req)).toString() || "{}"));
      return sendJson(res, 200, behavior);
    }
    if (url.pathname === "/__fake/state") return sendJson(res, 200, { posts, grants, behavior });
    if (url.pathname === "/__fake/insights" && req.method === "POST")
      return sendJson(res, 200, insights.control(JSON.parse((await readBody(req)).toString() || "{}")));
    if (url.pathname === "/avatar.jpg") {
      if (behavior.avatarGone) return sendJson(res, 404, { error: "expired" });
      // A 1×1 PNG served as the profile picture.
      res.writeHead(200, { "Content-Type": "image/png" });
      return res.end(
        Buffer.from(
          "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYPj/HwADAgH/eL9GtQAAAABJRU5ErkJggg==",
          "base64",
        ),
      );
    }
    if (url.pathname === "/sample.mp4") {
      res.writeHead(200, { "Content-Type": "video/mp4" });
      return res.end(fs.readFileSync(sampleMp4()));
    }
    calls.push(`${req.method} ${url.pathname}`);

    if (url.pathname === "/oauth/authorize" && req.method === "GET") {
      const redirectUri = url.searchParams.get("redirect_uri") ?? "";
      const state = url.searchParams.get("state") ?? "";
      if (url.searchParams.get("client_id") !== appId || url.searchParams.get("response_type") !== "code")
        return graphError(res, 400, { message: "Invalid platform app", code: 100 });
      if (!/^https?:\/\//.test(redirectUri))
        return graphError(res, 400, { message: "Invalid redirect_uri", code: 100 });
      const scopes = (url.searchParams.get("scope") ?? "").split(",");
      if (!scopes.includes("instagram_business_content_publish"))
        return graphError(res, 400, { message: "Invalid scope", code: 100 });
      const code = `AQB${randomBytes(18).toString("base64url")}`;
      codes.set(code, { redirectUri, at: Date.now(), scopes });
      const back = new URL(redirectUri);
      back.searchParams.set("code", code);
      back.searchParams.set("state", state);
      // The same consent without the insights permission (as an account connected before it was asked for).
      const basicCode = `AQB${randomBytes(18).toString("base64url")}`;
      codes.set(basicCode, {
        redirectUri,
        at: Date.now(),
        scopes: scopes.filter((scope) => scope !== "instagram_business_manage_insights"),
      });
      const basic = new URL(back);
      basic.searchParams.set("code", basicCode);
      const cancel = new URL(redirectUri);
      cancel.searchParams.set("error", "access_denied");
      cancel.searchParams.set("error_reason", "user_denied");
      cancel.searchParams.set("error_description", "The user denied your request.");
      cancel.searchParams.set("state", state);
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
      return res.end(`<!doctype html><html lang="en"><head><title>Instagram (fake): allow access</title></head>
<body><main><h1>Allow Brand Studio to access your Instagram professional account?</h1>
<p>Logged in as @${escapeHtml(account.username)}. Permissions: ${escapeHtml(scopes.join(", "))}</p>
<p><a id="allow" href="${escapeHtml(back.toString())}">Allow</a>
 <a id="allow-publishing" href="${escapeHtml(basic.toString())}">Grant publishing only</a>
 <a id="cancel" href="${escapeHtml(cancel.toString())}">Cancel</a></p></main></body></html>`);
    }

    const body = req.method === "POST" ? new URLSearchParams((await readBody(req)).toString()) : null;
    const param = (name: string) => url.searchParams.get(name) ?? body?.get(name) ?? null;

    if (url.pathname === "/oauth/access_token" && req.method === "POST") {
      const answer = (status: number, payload: unknown) => {
        grants.push({ grantType: param("grant_type") ?? "", status });
        return sendJson(res, status, payload);
      };
      if (param("client_id") !== appId || param("client_secret") !== appSecret)
        return answer(400, {
          error_type: "OAuthException",
          code: 400,
          error_message: "Invalid client_secret",
        });
      if (param("grant_type") !== "authorization_code")
        return answer(400, { error_type: "OAuthException", code: 400, error_message: "Invalid grant_type" });
      const code = codes.get(param("code") ?? "");
      codes.delete(param("code") ?? "");
      if (!code || Date.now() - code.at > 3_600_000)
        return answer(400, {
          error_type: "OAuthException",
          code: 400,
          error_message: "This authorization code has been used",
        });
      if (code.redirectUri !== param("redirect_uri"))
        return answer(400, {
          error_type: "OAuthException",
          code: 400,
          error_message:
            "Error validating verification code. Please make sure your redirect_uri is identical",
        });
      const short = issue("short");
      return answer(200, {
        data: [
          {
            access_token: short.token,
            user_id: account.userId,
            // What the consent asked for and allowed; never insights while `insights.behavior.denied`.
            permissions: code.scopes
              .filter(
                (scope) => !(insights.behavior.denied && scope === "instagram_business_manage_insights"),
              )
              .join(","),
          },
        ],
      });
    }

    const path = url.pathname.replace(/^\/v\d+\.\d+(?=\/)/, "");
    const accessToken = param("access_token");

    if (path === "/access_token" && req.method === "GET") {
      if (param("grant_type") !== "ig_exchange_token" || param("client_secret") !== appSecret)
        return graphError(res, 400, { message: "Invalid client_secret or grant_type", code: 101 });
      if (!valid(accessToken, "short")) {
        grants.push({ grantType: "ig_exchange_token", status: 400 });
        return invalidToken(res);
      }
      const long = issue("long");
      grants.push({ grantType: "ig_exchange_token", status: 200 });
      return sendJson(res, 200, {
        access_token: long.token,
        token_type: "bearer",
        expires_in: long.lifetime,
      });
    }
    if (path === "/refresh_access_token" && req.method === "GET") {
      if (param("grant_type") !== "ig_refresh_token")
        return graphError(res, 400, { message: "Invalid grant_type", code: 100 });
      if (!valid(accessToken, "long")) {
        grants.push({ grantType: "ig_refresh_token", status: 400 });
        return invalidToken(res);
      }
      const long = issue("long");
      grants.push({ grantType: "ig_refresh_token", status: 200 });
      return sendJson(res, 200, {
        access_token: long.token,
        token_type: "bearer",
        expires_in: long.lifetime,
      });
    }

    if (behavior.revokeOnNextPost && req.method === "POST" && path.endsWith("/media")) {
      behavior.revokeOnNextPost = false;
      for (const token of tokens.values()) token.revoked = true;
    }
    if (!valid(accessToken, "long") && !(path === "/me" && valid(accessToken))) return invalidToken(res);

    if (path === "/me" && req.method === "GET") {
      return sendJson(res, 200, {
        id: "26000000000000001",
        user_id: account.userId,
        username: account.username,
        name: account.name,
        profile_picture_url: account.profilePictureUrl,
        ...((param("fields") ?? "").split(",").includes("followers_count")
          ? { followers_count: insights.followers() }
          : {}),
      });
    }

    if (path.endsWith("/insights") && req.method === "GET") {
      const mediaId = path.split("/")[1];
      const post = posts.find((candidate) => candidate.id === mediaId);
      if (!post)
        return graphError(res, 400, { message: "Unsupported get request.", code: 100, error_subcode: 33 });
      await insights.wait();
      const usage = (percent: number, regain = 0) => ({
        "X-Business-Use-Case-Usage": JSON.stringify({
          [account.userId]: [
            {
              type: "instagram",
              call_count: percent,
              total_cputime: Math.round(percent / 2),
              total_time: Math.round(percent / 2),
              estimated_time_to_regain_access: regain,
            },
          ],
        }),
      });
      if (insights.throttled())
        return graphError(
          res,
          400,
          { message: "(#4) Application request limit reached", code: 4, type: "OAuthException" },
          usage(100, Math.ceil(insights.behavior.rateLimit.retryAfterSeconds / 60)),
        );
      if (insights.behavior.denied)
        return graphError(res, 403, {
          message: "(#10) Application does not have permission for this action",
          code: 10,
        });
      const metrics = (param("metric") ?? "").split(",").filter(Boolean);
      const deprecated = metrics.find((metric) => ["impressions", "plays", "video_views"].includes(metric));
      if (deprecated)
        return graphError(res, 400, {
          message: `(#100) Starting from v22.0, the ${deprecated} metric is no longer supported for media created after July 2, 2024. Please use the views metric instead.`,
          code: 100,
        });
      const known = [
        "views",
        "reach",
        "likes",
        "comments",
        "shares",
        "saved",
        "total_interactions",
        "follows",
        "profile_visits",
        "ig_reels_avg_watch_time",
      ];
      const unknown = metrics.find((metric) => !known.includes(metric));
      if (!metrics.length || unknown)
        return graphError(res, 400, {
          message: `(#100) metric[0] must be one of the following values: ${known.join(", ")}`,
          code: 100,
        });
      const values = insights.values(post.id);
      const headers = usage(insights.behavior.usagePercent);
      if (!values) {
        res.writeHead(200, { "Content-Type": "application/json", ...headers });
        return res.end(JSON.stringify({ data: [] }));
      }
      const of: Record<string, number> = {
        views: values.views,
        reach: values.reach,
        likes: values.likes,
        comments: values.comments,
        shares: values.shares,
        saved: values.saved,
        total_interactions: values.likes + values.comments + values.shares + values.saved,
        follows: 0,
        profile_visits: Math.round(values.reach / 10),
        ig_reels_avg_watch_time: 4200,
      };
      res.writeHead(200, { "Content-Type": "application/json", ...headers });
      return res.end(
        JSON.stringify({
          data: metrics.map((name) => ({
            name,
            period: "lifetime",
            values: [{ value: of[name] }],
            title: name,
            description: `The ${name} of the media.`,
            id: `${post.id}/insights/${name}/lifetime`,
          })),
        }),
      );
    }

    const own = (id: string) => id === account.userId || id === "me";
    const [, first, edge] = path.split("/");

    if (edge === "content_publishing_limit" && req.method === "GET" && own(first)) {
      return sendJson(res, 200, {
        data: [{ quota_usage: usedToday(), config: { quota_total: LIMIT, quota_duration: 86_400 } }],
      });
    }

    // The account's posts, newest first, with the fields asked for (Graph's timestamp: +0000, no millis).
    if (edge === "media" && req.method === "GET" && own(first)) {
      const fields = (param("fields") ?? "id").split(",");
      const limit = Number(param("limit") ?? 25);
      const data = posts
        .filter((post) => post.igUserId === account.userId && post.mediaType !== "STORY")
        .slice(-limit)
        .reverse()
        .map((post) => {
          const item: Record<string, string> = {
            id: post.id,
            caption: post.caption,
            permalink: permalinkOf(post),
            timestamp: new Date(post.at).toISOString().replace(/\.\d{3}Z$/, "+0000"),
          };
          return Object.fromEntries(fields.filter((field) => field in item).map((f) => [f, item[f]]));
        });
      return sendJson(res, 200, { data });
    }

    if (edge === "media" && req.method === "POST" && own(first)) {
      const mediaType = param("media_type");
      const container: Container = {
        id: newId(),
        igUserId: account.userId,
        mediaType:
          mediaType === "REELS" || mediaType === "CAROUSEL" || mediaType === "STORIES" ? mediaType : "IMAGE",
        carouselItem: param("is_carousel_item") === "true",
        caption: param("caption") ?? "",
        children: [],
        media: [],
        fetched: false,
        error: null,
        polls: 0,
        published: false,
      };
      if (container.caption.length > 2200)
        return graphError(res, 400, {
          message: "The caption is too long.",
          code: 100,
          error_subcode: 2207028,
        });
      if (mediaType && !["REELS", "CAROUSEL", "VIDEO", "IMAGE", "STORIES"].includes(mediaType))
        return graphError(res, 400, { message: "Invalid parameter: media_type", code: 100 });
      if (container.mediaType === "CAROUSEL") {
        const children = (param("children") ?? "").split(",").filter(Boolean);
        if (children.length < 2 || children.length > 10)
          return graphError(res, 400, {
            message: "Invalid parameter: a carousel holds 2 to 10 children.",
            code: 100,
            error_subcode: 2207040,
          });
        for (const childId of children) {
          const child = containers.get(childId);
          if (!child?.carouselItem || child.error || !child.fetched)
            return graphError(res, 400, { message: `Invalid parameter: child ${childId}`, code: 100 });
          container.media.push(...child.media);
        }
        container.children = children;
        container.fetched = true;
      } else if (container.mediaType === "STORIES") {
        if (param("caption") !== null)
          return graphError(res, 400, { message: "Invalid parameter: stories take no caption", code: 100 });
        const videoUrl = param("video_url");
        const imageUrl = param("image_url");
        if (!videoUrl === !imageUrl)
          return graphError(res, 400, { message: "A story needs one image_url or one video_url", code: 100 });
        void (videoUrl
          ? fetchMedia(container, videoUrl, "video")
          : fetchMedia(container, imageUrl as string, "image"));
      } else if (container.mediaType === "REELS") {
        const videoUrl = param("video_url");
        if (!videoUrl)
          return graphError(res, 400, { message: "The parameter video_url is required", code: 100 });
        void fetchMedia(container, videoUrl, "video");
      } else {
        const imageUrl = param("image_url");
        if (!imageUrl)
          return graphError(res, 400, { message: "The parameter image_url is required", code: 100 });
        void fetchMedia(container, imageUrl, "image");
      }
      if (behavior.failNextContainer) {
        container.error = `ERROR: ${behavior.failNextContainer}`;
        behavior.failNextContainer = null;
      }
      containers.set(container.id, container);
      return sendJson(res, 200, { id: container.id });
    }

    if (edge === "media_publish" && req.method === "POST" && own(first)) {
      if (behavior.dropPublish > 0) {
        behavior.dropPublish--;
        return; // no answer: the client gives up when its timeout ends
      }
      if (behavior.rateLimit.count > 0) {
        behavior.rateLimit.count--;
        return graphError(
          res,
          429,
          { message: "Application request limit reached", code: 4 },
          { "Retry-After": String(behavior.rateLimit.retryAfterSeconds) },
        );
      }
      if (behavior.serverError.count > 0) {
        behavior.serverError.count--;
        return graphError(res, behavior.serverError.status, {
          message: "An unexpected error has occurred. Please retry your request later.",
          code: 2,
        });
      }
      const container = containers.get(param("creation_id") ?? "");
      if (!container || container.carouselItem)
        return graphError(res, 400, { message: "Invalid parameter: creation_id", code: 100 });
      if (usedToday() >= LIMIT)
        return graphError(res, 400, {
          message: "The user has reached the maximum number of posts allowed in 24 hours.",
          code: 9,
          error_subcode: 2207042,
        });
      if (container.published)
        return graphError(res, 400, { message: "The media has already been published.", code: 100 });
      if (container.error || !container.fetched || container.polls < behavior.pollsUntilFinished)
        return graphError(res, 400, {
          message: "The media is not ready for publishing, please wait for a moment",
          code: 9007,
          error_subcode: 2207027,
        });
      container.published = true;
      const post: FakeInstagramPost = {
        id: newId(),
        igUserId: container.igUserId,
        mediaType:
          container.mediaType === "CAROUSEL"
            ? "CAROUSEL_ALBUM"
            : container.mediaType === "REELS"
              ? "REELS"
              : container.mediaType === "STORIES"
                ? "STORY"
                : "IMAGE",
        caption: container.caption,
        media: container.media,
        containerId: container.id,
        at: Date.now(),
      };
      posts.push(post);
      insights.track(post.id);
      if (behavior.publishLatencyMs) await new Promise((r) => setTimeout(r, behavior.publishLatencyMs));
      if (behavior.failAfterPublish.count > 0) {
        behavior.failAfterPublish.count--;
        return graphError(res, behavior.failAfterPublish.status, {
          message: "An unexpected error has occurred. Please retry your request later.",
          code: 2,
        });
      }
      return sendJson(res, 200, { id: post.id });
    }

    if (!edge && req.method === "GET") {
      const container = containers.get(first);
      if (container) {
        container.polls++;
        const status_code = container.published
          ? "PUBLISHED"
          : container.error && container.fetched
            ? "ERROR"
            : container.fetched && container.polls > behavior.pollsUntilFinished
              ? "FINISHED"
              : "IN_PROGRESS";
        return sendJson(res, 200, {
          id: container.id,
          status_code,
          status:
            status_code === "ERROR"
              ? container.error
              : status_code === "FINISHED"
                ? "Finished: Media has been uploaded and it is ready to be published."
                : `${status_code}`,
        });
      }
      const post = posts.find((candidate) => candidate.id === first);
      if (post) return sendJson(res, 200, { id: post.id, permalink: permalinkOf(post) });
    }
    return graphError(res, 400, {
      message: `Unsupported ${req.method} request. Object with ID '${first ?? ""}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
      code: 100,
      error_subcode: 33,
    });
  };

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    try {
      await handle(req, res, url);
    } catch (error) {
      if (!res.headersSent) graphError(res, 500, { message: (error as Error).message, code: 1 });
    }
  });
  const { url: fakeUrl, close } = await listen(server, options.port);
  const fake: FakeInstagram = {
    url: fakeUrl,
    appId,
    appSecret,
    behavior,
    posts,
    account,
    calls,
    grants,
    issuedTokens: () => [...tokens.keys()],
    issueLongLivedToken: () => issue("long").token,
    revokeAll() {
      for (const token of tokens.values()) token.revoked = true;
    },
    insights,
    close,
  };
  account.profilePictureUrl = `${fake.url}/avatar.jpg`;
  return fake;
}
