import { serveMedia } from "@/lib/media/serve-media";

type Context = { params: Promise<{ key: string[] }> };

export async function GET(req: Request, { params }: Context) {
  return serveMedia(req, (await params).key.join("/"));
}

export async function HEAD(req: Request, { params }: Context) {
  return serveMedia(req, (await params).key.join("/"));
}
