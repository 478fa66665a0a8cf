export const dynamic = "force-dynamic";

const body = { ok: true, status: "succeeded", progress: 100 };

export function GET() {
  return Response.json(body, { headers: { "Cache-Control": "no-store" } });
}
