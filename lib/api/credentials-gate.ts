import { NextRequest } from "next/server";
import { errorResponse } from "@/lib/api/handler";
import { readBodyCapped } from "@/lib/api/read-body";
import { clientIp } from "@/lib/auth/client-ip";
import { assertSignInAllowed } from "@/lib/auth/sign-in-throttle";
import { ApiError } from "@/lib/errors/api-error";
import { newRequestId, REQUEST_ID_HEADER, requestIdFrom } from "@/lib/errors/request-id";

const CREDENTIALS_CALLBACK = "/api/auth/callback/credentials";
const FORM_LIMIT_BYTES = 16 * 1024;

/**
 * In front of next-auth's credentials callback: while the account or the IP is locked out, answer 429
 * rate_limited in the error envelope with Retry-After, so a script gets a clear answer instead of a redirect.
 * The body also carries `url` (…/login?error=<message>), which is what next-auth's `signIn()` reads: the
 * sign-in page shows the same message to a person. Other requests go on to next-auth with their body intact.
 */
export async function gateCredentialsCallback(req: NextRequest): Promise<NextRequest | Response> {
  if (req.method !== "POST" || req.nextUrl.pathname !== CREDENTIALS_CALLBACK) return req;
  const requestId = requestIdFrom(req.headers.get(REQUEST_ID_HEADER)) ?? newRequestId();
  let body: Buffer;
  try {
    body = await readBodyCapped(req, FORM_LIMIT_BYTES);
  } catch (error) {
    if (error instanceof ApiError)
      return errorResponse(error.code, error.message, requestId, undefined, error);
    throw error;
  }
  const email = new URLSearchParams(body.toString("utf8")).get("email");
  if (email) {
    try {
      await assertSignInAllowed({ email, ip: clientIp(req.headers) });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const response = errorResponse(error.code, error.message, requestId, undefined, error);
      const envelope = await response.json();
      const login = new URL("/login", req.url);
      login.searchParams.set("error", error.message);
      return Response.json(
        { ...envelope, url: login.toString() },
        { status: response.status, headers: response.headers },
      );
    }
  }
  return new NextRequest(req.url, { method: req.method, headers: req.headers, body: new Uint8Array(body) });
}
