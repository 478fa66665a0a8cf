export const dynamic = "force-dynamic";

const body = { ok: true, status: "succeeded", progress: 100 };

export function GET() {
  return Response.json(body, { headers: { "Cache-Control": "no-store" } });
}

/** The framework's floor for a create: read a JSON body, answer 201 with JSON; no validation, no work, no write. */
export async function POST(request) {
  const input = await request.json();
  return Response.json(
    { id: "pst_bench", ...input },
    { status: 201, headers: { "Cache-Control": "no-store" } },
  );
}
