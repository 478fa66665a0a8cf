import "server-only";
import { ApiError } from "@/lib/errors/api-error";
import { authenticate, type Principal } from "./authenticate";
import { getSession } from "./get-session";

/**
 * The caller of a route the browser navigates to (OAuth start and callback), where no Authorization header
 * can be sent: a bearer token when there is one, else the signed-in session. Only for GETs that change
 * nothing by themselves or are bound to a signed state; every other operation takes the bearer token only.
 */
export async function browserPrincipal(req: Request): Promise<Principal> {
  const authorization = req.headers.get("authorization");
  if (authorization) {
    const principal = await authenticate(authorization);
    if (principal) return principal;
  } else {
    const userId = (await getSession())?.user?.id;
    if (userId) return { userId, credential: "access_token" };
  }
  throw new ApiError(
    "unauthorized",
    "Sign in first (this page needs your session), or send `Authorization: Bearer <token>`.",
  );
}
