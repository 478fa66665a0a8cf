import { askModel } from "../model";

export const dynamic = "force-dynamic";

/** A streamed draft's floor: the model's server-sent events passed on to the client as they come. */
export async function POST(request) {
  const input = await request.json();
  const answer = await askModel(input, true);
  return new Response(answer.body, {
    headers: { "content-type": "text/event-stream", "cache-control": "no-store" },
  });
}
