import { withApi } from "@/lib/api/handler";
import { cancelPublication, getPublication, reschedulePublication } from "@/lib/contracts/publishing";
import { cancelPublication as cancel, getPublication as get } from "@/lib/publishing/publications";
import { reschedulePublication as reschedule } from "@/lib/publishing/reschedule-publication";

export const dynamic = "force-dynamic";

const NO_STORE = { headers: { "Cache-Control": "no-store" } };

export const GET = withApi(getPublication, async ({ principal, params: { publicationId } }) =>
  Response.json(await get({ principal, publicationId }), NO_STORE),
);

export const PATCH = withApi(reschedulePublication, async ({ principal, params: { publicationId }, body }) =>
  Response.json(await reschedule({ principal, publicationId, input: body }), NO_STORE),
);

export const DELETE = withApi(cancelPublication, async ({ principal, params: { publicationId } }) =>
  Response.json(await cancel({ principal, publicationId }), NO_STORE),
);
