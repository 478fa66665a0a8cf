"use client";

import type { PostView } from "@/lib/contracts/posts";

/** Every draft of the current brief, newest first; choosing one opens it in the editor. */
export function PostDraftHistory({
  drafts,
  activeId,
  unsaved,
  onSelect,
}: {
  drafts: PostView[];
  activeId: string;
  unsaved: Set<string>;
  onSelect: (postId: string) => void;
}) {
  return (
    <nav aria-label="Drafts" className="space-y-2">
      <h2 className="text-sm font-semibold text-slate-700">Drafts of this brief</h2>
      <ol className="flex gap-2 overflow-x-auto pb-1">
        {drafts.map((draft, index) => {
          const number = drafts.length - index;
          const active = draft.postId === activeId;
          return (
            <li key={draft.postId} className="w-48 shrink-0">
              <button
                type="button"
                onClick={() => onSelect(draft.postId)}
                aria-current={active ? "true" : undefined}
                className={`w-full rounded-lg border px-3 py-2 text-left text-sm transition ${
                  active ? "border-brand-500 bg-brand-50" : "border-slate-200 bg-white hover:border-slate-300"
                }`}
              >
                <span className="flex items-center justify-between gap-2">
                  <span className="whitespace-nowrap font-medium">Draft {number}</span>
                  <span className="whitespace-nowrap text-xs text-slate-600">
                    {unsaved.has(draft.postId) ? "unsaved · " : ""}
                    {new Date(draft.createdAt).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}
                  </span>
                </span>
                <span className="mt-0.5 block truncate text-xs text-slate-600">
                  {draft.caption.split("\n")[0]}
                </span>
              </button>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
