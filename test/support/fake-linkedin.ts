import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { readBody, sendJson } from "./fake-provider-kit";

/**
 * A local server that speaks LinkedIn's documented APIs as publishing uses them, serving both hosts
 * (LINKEDIN_AUTH_BASE_URL and LINKEDIN_API_BASE_URL point here):
 * - `GET /oauth/v2/authorization` — an HTML consent page ("Allow" / "Cancel") that sends the browser back to
 *   `redirect_uri` with `code` and `state` (or `error=user_cancelled_authorize`);
 * - `POST /oauth/v2/accessToken` — form body, `authorization_code` or `refresh_token` grants;
 * - `GET /v2/userinfo` — OpenID: `sub`, `name`, `picture`;
 * - `POST /rest/images?action=initializeUpload` → `{value: {uploadUrl, image}}`, then `PUT` of the bytes;
 * - `POST /rest/posts` → 201 with the post's URN in `x-restli-id`. The `/rest` calls must carry
 *   `LinkedIn-Version` and `X-Restli-Protocol-Version: 2.0.0`. Errors: `{status, serviceErrorCode, code, message}`.
 * Knobs (`behavior`, also `POST /__fake/behavior`): the next N post calls answer 429 (with Retry-After) or
 * 5xx; `tokenLifetimeSeconds`; `revokeAll()` makes every issued token answer 401. `posts` records every post
 * made (also `GET /__fake/state`), so a test can count them.
 */

export type FakeLinkedInPost = {
  urn: string;
  author: string;
  commentary: string;
  images: { urn: string; bytes: number; contentType: string; altText: string }[];
  headers: { version: string | undefined; restli: string | undefined };
  at: number;
};

export type FakeLinkedInBehavior = {
  rateLimit: { count: number; retryAfterSeconds: number };
  serverError: { count: number; status: number };
  /** expires_in of the access tokens it issues. */
  tokenLifetimeSeconds: number;
};

export type FakeLinkedIn = {
  url: string;
  clientId: string;
  clientSecret: string;
  behavior: FakeLinkedInBehavior;
  posts: FakeLinkedInPost[];
  grants: { grantType: string; status: number }[];
  member: { sub: string; name: string; picture: string };
  /** Every access and refresh token issued, to look for in logs and database dumps. */
  issuedTokens: () => string[];
  revokeAll: () => void;
  close: () => Promise<void>;
};

const fail = (res: http.ServerResponse, status: number, code: string, message: string, headers = {}) => {
  res.writeHead(status, { "Content-Type": "application/json", ...headers });
  res.end(JSON.stringify({ status, serviceErrorCode: status * 100, code, message }));
};

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
  const codes = new Map<string, { redirectUri: string; at: number }>();
  const tokens = new Map<string, { kind: "access" | "refresh"; expiresAt: number; revoked: boolean }>();
  const images = new Map<string, { uploaded: boolean; bytes: number; contentType: string }>();
  const posts: FakeLinkedInPost[] = [];
  const grants: FakeLinkedIn["grants"] = [];
  const behavior: FakeLinkedInBehavior = {
    rateLimit: { count: 0, retryAfterSeconds: 1 },
    serverError: { count: 0, status: 503 },
    tokenLifetimeSeconds: 5_184_000,
  };
  let nextPost = 7_100_000_000_000_000_000n;
  let nextImage = 1;

  const issue = () => {
    const access = `AQV${randomBytes(24).toString("base64url")}`;
    const refresh = `AQX${randomBytes(24).toString("base64url")}`;
    tokens.set(access, {
      kind: "access",
      expiresAt: Date.now() + behavior.tokenLifetimeSeconds * 1000,
      revoked: false,
    });
    tokens.set(refresh, { kind: "refresh", expiresAt: Date.now() + 31_536_000_000, revoked: false });
    return {
      access_token: access,
      expires_in: behavior.tokenLifetimeSeconds,
      refresh_token: refresh,
      refresh_token_expires_in: 31_536_000,
      scope: "openid,profile,w_member_social",
    };
  };

  const bearer = (req: http.IncomingMessage) => {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1] ?? "";
    const known = tokens.get(token);
    return known && known.kind === "access" && !known.revoked && known.expiresAt > Date.now();
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse, url: URL) => {
    if (url.pathname === "/__fake/behavior" && req.method === "POST") {
      Object.assign(behavior, JSON.parse((await readBody(req)).toString() || "{}"));
      return sendJson(res, 200, behavior);
    }
    if (url.pathname === "/__fake/state") return sendJson(res, 200, { posts, grants, behavior });
    if (url.pathname === "/avatar.png") {
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
      codes.set(code, { redirectUri, at: Date.now() });
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
        return answer(200, issue());
      }
      if (grantType === "refresh_token") {
        const known = tokens.get(form.get("refresh_token") ?? "");
        if (known?.kind !== "refresh" || known.revoked)
          return answer(400, {
            error: "invalid_request",
            error_description:
              "The provided authorization grant or refresh token is invalid, expired or revoked",
          });
        return answer(200, issue());
      }
      return answer(400, { error: "unsupported_grant_type", error_description: "Unsupported grant type" });
    }

    if (url.pathname.startsWith("/upload/") && req.method === "PUT") {
      const image = images.get(decodeURIComponent(url.pathname.slice("/upload/".length)));
      if (!image) return fail(res, 404, "NOT_FOUND", "Upload URL not found");
      if (!bearer(req))
        return fail(
          res,
          401,
          "REVOKED_ACCESS_TOKEN",
          "The token used in the request has been revoked by the user",
        );
      const body = await readBody(req);
      Object.assign(image, {
        uploaded: true,
        bytes: body.length,
        contentType: req.headers["content-type"] ?? "",
      });
      res.writeHead(201);
      return res.end();
    }

    if (url.pathname === "/v2/userinfo" && req.method === "GET") {
      if (!bearer(req))
        return fail(
          res,
          401,
          "REVOKED_ACCESS_TOKEN",
          "The token used in the request has been revoked by the user",
        );
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
      if (!bearer(req))
        return fail(
          res,
          401,
          "REVOKED_ACCESS_TOKEN",
          "The token used in the request has been revoked by the user",
        );
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
      const author = `urn:li:person:${member.sub}`;
      if (url.pathname === "/rest/images" && url.searchParams.get("action") === "initializeUpload") {
        if (body.initializeUploadRequest?.owner !== author)
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
        if (body.author !== author)
          return fail(res, 403, "ACCESS_DENIED", "Not enough permissions to post as this author");
        const commentary = String(body.commentary ?? "");
        if (plainCommentary(commentary).length > 3000)
          return fail(res, 422, "UNPROCESSABLE_ENTITY", "commentary is longer than 3000 characters");
        const refs: { id: string; altText?: string }[] = body.content?.media
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
        posts.push({ urn, author, commentary, images: used, headers: { version, restli }, at: Date.now() });
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
    grants,
    member,
    issuedTokens: () => [...tokens.keys()],
    revokeAll() {
      for (const token of tokens.values()) token.revoked = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  member.picture = `${fake.url}/avatar.png`;
  return fake;
}
