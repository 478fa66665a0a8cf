import "server-only";
import type { NextRequest } from "next/server";
import { z } from "zod";
import { publicOrigin } from "@/lib/api/public-origin";
import { readJson, readQuery } from "@/lib/api/read-request";
import { assertSameOrigin } from "@/lib/api/same-origin";
import { authenticate, type Principal } from "@/lib/auth/authenticate";
import { browserPrincipal } from "@/lib/auth/browser-principal";
import { listChannelsQuery } from "@/lib/contracts/publishing";
import { ApiError } from "@/lib/errors/api-error";
import { CHOICE_COOKIE, choiceCookie, finishChoice, readChoice, sealChoice } from "./oauth-choice";
import { finishOAuth, oauthChannel, startOAuth } from "./oauth-connect";

/**
 * The browser side of connecting a channel through OAuth (a redirect flow with no contract operation): what
 * the start, callback and choice routes answer. See oauth-connect.ts and oauth-choice.ts.
 */

type RouteParams = Record<string, string | string[] | undefined>;

const NO_STORE = { "Cache-Control": "no-store" };

/**
 * POST start (the brand page's Connect button, with the session's access token, same-origin only): the
 * platform's authorize URL with a signed state, where the page then goes.
 */
export async function startOAuthForPage(req: NextRequest, principal: Principal, params: RouteParams) {
  assertSameOrigin(req);
  const channel = oauthChannel(String(params.channel ?? ""));
  const { brandId } = await readJson(req, listChannelsQuery);
  const authorizeUrl = await startOAuth({ principal, channel, brandId, origin: publicOrigin(req) });
  return Response.json({ authorizeUrl }, { headers: NO_STORE });
}

/**
 * GET start: with a bearer token (an API client), a 302 to the platform. A browser with only its session
 * cookie (a link, perhaps on another site) connects nothing: it is sent to the brand's page, where connecting
 * is a deliberate click.
 */
export async function startOAuthByLink(req: NextRequest, params: RouteParams) {
  const channel = oauthChannel(String(params.channel ?? ""));
  const { brandId } = readQuery(req, listChannelsQuery);
  const principal = await authenticate(req.headers.get("authorization"));
  const location = principal
    ? await startOAuth({ principal, channel, brandId, origin: publicOrigin(req) })
    : `/brands/${brandId}?connect=${channel}`;
  return new Response(null, { status: principal ? 302 : 303, headers: { Location: location, ...NO_STORE } });
}

/**
 * Where the platform sends the browser back: on success a 303 to the brand's settings, or, when LinkedIn
 * found company pages, to the brand's page that lets the owner choose which accounts to add.
 */
export async function finishOAuthRedirect(req: NextRequest, params: RouteParams) {
  const principal = await browserPrincipal(req);
  const channel = oauthChannel(String(params.channel ?? ""));
  const origin = publicOrigin(req);
  const done = await finishOAuth({ principal, channel, params: new URL(req.url).searchParams, origin });
  const headers = new Headers(NO_STORE);
  if (done.choice) {
    headers.set("Location", `/brands/${done.brandId}/connect/linkedin`);
    headers.append("Set-Cookie", choiceCookie(sealChoice(principal, done.brandId, done.choice), origin));
  } else {
    headers.set("Location", `/brands/${done.brandId}?connected=${done.channelId}`);
  }
  return new Response(null, { status: 303, headers });
}

const chooseBody = z.strictObject({ externalIds: z.array(z.string().max(200)).max(200) });

function choiceCookieOf(req: Request) {
  for (const part of (req.headers.get("cookie") ?? "").split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name === CHOICE_COOKIE) return value.join("=");
  }
  return undefined;
}

function linkedinOnly(params: RouteParams) {
  if (params.channel !== "linkedin") throw new ApiError("not_found", "Only LinkedIn connects with a choice.");
}

/** GET choice: the LinkedIn member and pages found by the last consent, for the brand's connect page. */
export async function readOAuthChoice(req: NextRequest, principal: Principal, params: RouteParams) {
  linkedinOnly(params);
  return Response.json(await readChoice(principal, choiceCookieOf(req)), { headers: NO_STORE });
}

/** POST choice `{ externalIds }` (same-origin): connects the accounts chosen and forgets the rest. */
export async function chooseOAuthAccounts(req: NextRequest, principal: Principal, params: RouteParams) {
  linkedinOnly(params);
  assertSameOrigin(req);
  const { externalIds } = await readJson(req, chooseBody);
  const done = await finishChoice(principal, choiceCookieOf(req), externalIds);
  return Response.json(done, {
    headers: { ...NO_STORE, "Set-Cookie": choiceCookie("", publicOrigin(req), 0) },
  });
}
