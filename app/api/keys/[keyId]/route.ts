import { withApi } from "@/lib/api/handler";
import { readParams } from "@/lib/api/read-request";
import { withAuth } from "@/lib/api/with-auth";
import { revokeApiKey } from "@/lib/auth/api-keys";
import { keyIdParams, revokeApiKey as revokeOperation } from "@/lib/contracts/keys";

export const DELETE = withApi(
  withAuth(async (_req, { principal, params }) => {
    const { keyId } = readParams(params, keyIdParams);
    await revokeApiKey({ userId: principal.userId, keyId });
    return new Response(null, { status: 204 });
  }),
  { docId: revokeOperation.id },
);
