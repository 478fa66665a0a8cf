import { withApi } from "@/lib/api/handler";
import { withAuth } from "@/lib/api/with-auth";
import { startOAuthByLink, startOAuthForPage } from "@/lib/publishing/oauth-http";

export const dynamic = "force-dynamic";

export const POST = withApi(
  withAuth((req, { principal, params }) => startOAuthForPage(req, principal, params)),
  { operation: "oauth-start" },
);

export const GET = withApi((req, { params }) => startOAuthByLink(req, params), { operation: "oauth-start" });
