import { withApi } from "@/lib/api/handler";
import { operations } from "@/lib/contracts";
import { buildOpenApiDocument } from "@/lib/openapi/build-document";

export const dynamic = "force-dynamic";

// Public, like the docs: the document describes the API, not anyone's data.
export const GET = withApi(
  async () => {
    const document = buildOpenApiDocument(operations);
    return Response.json(document, { headers: { "Cache-Control": "public, max-age=60" } });
  },
  { operation: "openapi-document" },
);
