import { withApi } from "@/lib/api/handler";
import { readJson } from "@/lib/api/read-request";
import { withAuth } from "@/lib/api/with-auth";
import { deleteAccount } from "@/lib/auth/delete-account";
import { deleteAccountBody, deleteAccount as operation } from "@/lib/contracts/teams";

export const dynamic = "force-dynamic";

export const DELETE = withApi(
  withAuth(async (req, { principal }) => {
    const { password } = await readJson(req, deleteAccountBody);
    await deleteAccount({ principal, password });
    return new Response(null, { status: 204 });
  }),
  { docId: operation.id },
);
