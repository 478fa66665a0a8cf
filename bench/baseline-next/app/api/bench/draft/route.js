import { askModel } from "./model";

export const dynamic = "force-dynamic";

/** A create's floor: read the brief, wait for the model's whole answer, answer 201 with its draft. */
export async function POST(request) {
  const input = await request.json();
  const completion = await (await askModel(input, false)).json();
  const draft = JSON.parse(completion.choices[0].message.content);
  return Response.json({ id: "pst_bench", ...input, ...draft }, { status: 201 });
}
