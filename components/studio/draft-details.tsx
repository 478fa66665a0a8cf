import Link from "next/link";
import type { PostView } from "@/lib/contracts/posts";

const PROVIDER_LABELS: Record<string, string> = {
  local: "Built-in writer",
  openai: "OpenAI",
  "openai-compatible": "OpenAI-compatible server",
};

/** How the draft was made, for whoever wants to know: kept behind a disclosure so marketers see the post. */
export function DraftDetails({ post }: { post: PostView }) {
  const { generation } = post;
  const tokens =
    generation.inputTokens === null && generation.outputTokens === null
      ? "not reported"
      : `${generation.inputTokens ?? "?"} in, ${generation.outputTokens ?? "?"} out`;
  return (
    <details className="rounded-lg border border-slate-200 px-3 py-2 text-sm" data-testid="draft-details">
      <summary className="cursor-pointer font-medium text-slate-700">Details</summary>
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-slate-600">
        <dt>Written by</dt>
        <dd>
          {PROVIDER_LABELS[generation.provider] ?? generation.provider} · {generation.model}
        </dd>
        <dt>Took</dt>
        <dd>{(generation.latencyMs / 1000).toFixed(1)} s</dd>
        <dt>Tokens</dt>
        <dd>{tokens}</dd>
        <dt>Variant</dt>
        <dd>seed {generation.seed}</dd>
        <dt>Generated</dt>
        <dd>{new Date(post.createdAt).toLocaleString()}</dd>
        <dt>Prompt</dt>
        <dd>
          <Link href={`/brands/${post.brandId}`} className="text-brand-700 underline">
            See what the model reads on the brand page
          </Link>
        </dd>
      </dl>
    </details>
  );
}
