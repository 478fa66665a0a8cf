import { authenticate, type Principal } from "@/lib/auth/authenticate";
import { ApiError } from "@/lib/errors/api-error";
import type { ApiContext, ApiHandler } from "./handler";

export type AuthedContext = ApiContext & { principal: Principal };

/** The caller of a bearer access token or API key; 401 without one. A session cookie alone is not enough. */
export async function requirePrincipal(req: Request): Promise<Principal> {
  const principal = await authenticate(req.headers.get("authorization"));
  if (!principal) {
    throw new ApiError(
      "unauthorized",
      "Send a valid access token or API key as `Authorization: Bearer <token>`.",
    );
  }
  return principal;
}

/** Requires a bearer access token or API key (the form before withApi(operation, handler)). */
export function withAuth(handler: ApiHandler<AuthedContext>): ApiHandler {
  return async (req, ctx) => handler(req, { ...ctx, principal: await requirePrincipal(req) });
}
