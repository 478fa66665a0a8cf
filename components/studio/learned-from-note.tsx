import Link from "next/link";
import { CHANNEL_LABELS } from "@/components/studio/form-controls";
import type { LearnedFrom } from "@/lib/contracts/learning";
import { LEARNING_MIN_POSTS } from "@/lib/contracts/learning-rules";

const count = (value: number) => value.toLocaleString("en");

function resultOf(post: LearnedFrom["posts"][number], measure: LearnedFrom["measure"]) {
  const rate =
    measure === "interactions"
      ? `${count(post.engagementRate)} interactions`
      : `${(post.engagementRate * 100).toFixed(1)}% engagement`;
  const base =
    measure === "reach" && post.reach !== null
      ? ` · ${count(post.interactions)} of ${count(post.reach)} reached`
      : measure === "views" && post.views !== null
        ? ` · ${count(post.interactions)} of ${count(post.views)} views`
        : "";
  const relative = post.relative === null ? "" : ` · ${post.relative}× your median`;
  return `${rate}${base}${relative}`;
}

/**
 * What the draft learned from the brand's results (issue 41): its examples with links and their results,
 * or, quietly, why it had none; and the switch for the next draft.
 */
export function LearnedFromNote({
  learnedFrom,
  learn,
  onLearnChange,
  disabled,
}: {
  learnedFrom: LearnedFrom | null;
  learn: boolean;
  onLearnChange: (learn: boolean) => void;
  disabled?: boolean;
}) {
  const channel = learnedFrom ? CHANNEL_LABELS[learnedFrom.channel] : null;
  return (
    <section
      aria-label="Learning from results"
      data-testid="learned-from"
      className="space-y-2 rounded-lg border border-slate-200 bg-slate-50 px-3 py-2 text-sm"
    >
      {learnedFrom?.status === "examples" && (
        <>
          <p className="font-medium text-slate-800">
            Written with your {learnedFrom.posts.length} best {channel} posts as examples
          </p>
          <ol className="space-y-1.5">
            {learnedFrom.posts.map((post) => (
              <li key={post.postId} className="min-w-0">
                <Link
                  href={`/studio/${post.postId}`}
                  className="block truncate text-brand-700 underline hover:text-brand-600"
                >
                  {post.excerpt || "Untitled post"}
                </Link>
                <span className="text-xs text-slate-600">{resultOf(post, learnedFrom.measure)}</span>
              </li>
            ))}
          </ol>
        </>
      )}
      {learnedFrom?.status === "not_enough_results" && (
        <p className="text-slate-600">
          Not enough results yet to learn from: {count(learnedFrom.measuredPosts)} of {LEARNING_MIN_POSTS}{" "}
          measured {channel} posts older than two days.
        </p>
      )}
      {learnedFrom?.status === "off" && (
        <p className="text-slate-600">Written without your best posts as examples.</p>
      )}
      <label className="flex items-center gap-2 text-slate-700">
        <input
          type="checkbox"
          className="h-4 w-4 rounded border-slate-300"
          checked={learn}
          disabled={disabled}
          onChange={(event) => onLearnChange(event.target.checked)}
        />
        Learn from my best posts in the next draft
      </label>
    </section>
  );
}
