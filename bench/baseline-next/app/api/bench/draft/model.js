// The framework's floor for a draft written by a hosted model: the bench's slow model (BENCH_MODEL_URL, the
// OpenAI fake) asked once with the brief, and nothing else: no validation, moderation, database or images.
export function askModel(input, stream) {
  const brief = { channel: input.channel, goal: input.goal, topic: input.topic };
  return fetch(`${process.env.BENCH_MODEL_URL}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer sk-bench" },
    body: JSON.stringify({
      model: "gpt-bench",
      stream,
      messages: [{ role: "user", content: `<brief>${JSON.stringify(brief)}</brief>` }],
    }),
  });
}
