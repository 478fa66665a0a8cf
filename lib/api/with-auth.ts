import { authenticate, type Principal } from "@/lib/auth/authenticate";
import { ApiError } from "@/lib/errors/api-error";
import type { ApiContext, ApiHandler } from "./handler";

export type AuthedContext = ApiContext & { principal: Principal };

/** Requires a bearer access token or API key. A session cookie alone is not enough for the API. */
export function withAuth(handler: ApiHandler<AuthedContext>): ApiHandler {
  return async (req, ctx) => {
    const principal = await authenticate(req.headers.get("authorization"));
    if (!principal) {
      throw new ApiError(
        "unauthorized",
        "Send a valid access token or API key as `Authorization: Bearer <token>`.",
      );
    }
    return handler(req, { ...ctx, principal });
  };
}
