import { withApi } from "@/lib/api/handler";
import { readJson } from "@/lib/api/read-request";
import { withAuth } from "@/lib/api/with-auth";
import { createApiKey, listApiKeys } from "@/lib/auth/api-keys";
import {
  createApiKeyBody,
  createApiKey as createApiKeyOperation,
  listApiKeys as listOperation,
} from "@/lib/contracts/keys";

export const GET = withApi(
  withAuth(async (_req, { principal }) => Response.json(await listApiKeys({ userId: principal.userId }))),
  { docId: listOperation.id },
);

export const POST = withApi(
  withAuth(async (req, { principal }) => {
    const { name } = await readJson(req, createApiKeyBody);
    const created = await createApiKey({ userId: principal.userId, name });
    return Response.json(created, { status: 201, headers: { "Cache-Control": "no-store" } });
  }),
  { docId: createApiKeyOperation.id },
);
