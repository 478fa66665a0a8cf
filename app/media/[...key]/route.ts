import { withApi } from "@/lib/api/handler";
import { serveMedia } from "@/lib/media/serve-media";

export const dynamic = "force-dynamic";

const handler = withApi(async (req, { params }) => {
  const key = params.key;
  return serveMedia(req, Array.isArray(key) ? key.join("/") : (key ?? ""));
});

export const GET = handler;
export const HEAD = handler;
