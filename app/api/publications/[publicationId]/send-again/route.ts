import { withApi } from "@/lib/api/handler";
import { readParams } from "@/lib/api/read-request";
import { withAuth } from "@/lib/api/with-auth";
import { sendPublicationAgain as operation, publicationParams } from "@/lib/contracts/publishing";
import { sendPublicationAgain } from "@/lib/publishing/resolve-outcome";

export const dynamic = "force-dynamic";

export const POST = withApi(
  withAuth(async (_req, { principal, params }) => {
    const { publicationId } = readParams(params, publicationParams);
    return Response.json(await sendPublicationAgain({ principal, publicationId }));
  }),
  { docId: operation.id },
);
