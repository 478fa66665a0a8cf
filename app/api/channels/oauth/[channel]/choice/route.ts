import { z } from "zod";
import { withApi } from "@/lib/api/handler";
import { publicOrigin } from "@/lib/api/public-origin";
import { readJson } from "@/lib/api/read-request";
import { assertSameOrigin } from "@/lib/api/same-origin";
import { withAuth } from "@/lib/api/with-auth";
import { ApiError } from "@/lib/errors/api-error";
import { CHOICE_COOKIE, choiceCookie, finishChoice, readChoice } from "@/lib/publishing/oauth-choice";

export const dynamic = "force-dynamic";

const chooseBody = z.strictObject({ externalIds: z.array(z.string().max(200)).max(200) });

function cookieOf(req: Request) {
  for (const part of (req.headers.get("cookie") ?? "").split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name === CHOICE_COOKIE) return value.join("=");
  }
  return undefined;
}

function linkedinOnly(params: Record<string, string | string[] | undefined>) {
  if (params.channel !== "linkedin") throw new ApiError("not_found", "Only LinkedIn connects with a choice.");
}

/** GET: the LinkedIn member and pages found by the last consent, for the brand's connect page. */
export const GET = withApi(
  withAuth(async (req, { principal, params }) => {
    linkedinOnly(params);
    return Response.json(await readChoice(principal, cookieOf(req)), {
      headers: { "Cache-Control": "no-store" },
    });
  }),
  { operation: "oauth-choice" },
);

/** POST `{ externalIds }` (same-origin): connects the accounts chosen and forgets the rest. */
export const POST = withApi(
  withAuth(async (req, { principal, params }) => {
    linkedinOnly(params);
    assertSameOrigin(req);
    const { externalIds } = await readJson(req, chooseBody);
    const done = await finishChoice(principal, cookieOf(req), externalIds);
    return Response.json(done, {
      headers: { "Cache-Control": "no-store", "Set-Cookie": choiceCookie("", publicOrigin(req), 0) },
    });
  }),
  { operation: "oauth-choice" },
);
