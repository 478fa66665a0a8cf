import { withApi } from "@/lib/api/handler";
import { readJson } from "@/lib/api/read-request";
import { withAuth } from "@/lib/api/with-auth";
import { clientIp } from "@/lib/auth/client-ip";
import { deleteAccountBody, deleteAccount as operation } from "@/lib/contracts/users";
import { deleteAccount } from "@/lib/users/delete-account";

export const dynamic = "force-dynamic";

export const DELETE = withApi(
  withAuth(async (req, { principal }) => {
    const body = await readJson(req, deleteAccountBody);
    await deleteAccount({ principal, body, ip: clientIp(req.headers) });
    return new Response(null, { status: 204 });
  }),
  { docId: operation.id },
);
