import { withApi } from "@/lib/api/handler";
import { readParams } from "@/lib/api/read-request";
import { authenticate } from "@/lib/auth/authenticate";
import { invitationTokenParams, getInvitation as operation } from "@/lib/contracts/teams";
import { previewInvitation } from "@/lib/teams/preview";

export const dynamic = "force-dynamic";

export const GET = withApi(
  async (req, { params }) => {
    const { token } = readParams(params, invitationTokenParams);
    // Optional: a signed-in member learns they are in the brand already; anyone else reads the same preview.
    const principal = await authenticate(req.headers.get("authorization"));
    return Response.json(await previewInvitation(token, principal), {
      headers: { "Cache-Control": "no-store" },
    });
  },
  { docId: operation.id },
);
