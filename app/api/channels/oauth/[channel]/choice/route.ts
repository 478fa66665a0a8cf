import { withApi } from "@/lib/api/handler";
import { withAuth } from "@/lib/api/with-auth";
import { chooseOAuthAccounts, readOAuthChoice } from "@/lib/publishing/oauth-http";

export const dynamic = "force-dynamic";

export const GET = withApi(
  withAuth((req, { principal, params }) => readOAuthChoice(req, principal, params)),
  { operation: "oauth-choice" },
);

export const POST = withApi(
  withAuth((req, { principal, params }) => chooseOAuthAccounts(req, principal, params)),
  { operation: "oauth-choice" },
);
