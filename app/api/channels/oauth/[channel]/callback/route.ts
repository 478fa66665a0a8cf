import { withApi } from "@/lib/api/handler";
import { finishOAuthRedirect } from "@/lib/publishing/oauth-http";

export const dynamic = "force-dynamic";

export const GET = withApi((req, { params }) => finishOAuthRedirect(req, params), {
  operation: "oauth-callback",
});
