"use client";

import { type KeyboardEvent, useState } from "react";
import { HASHTAG_PATTERN } from "@/lib/contracts/post-rules";

/** Hashtag chips with add and remove, the limit shown, and the channel's tag rules checked as you type. */
export function PostHashtags({
  hashtags,
  max,
  onChange,
}: {
  hashtags: string[];
  max: number;
  onChange: (hashtags: string[]) => void;
}) {
  const [draft, setDraft] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const full = hashtags.length >= max;

  function add() {
    const tag = `#${draft.trim().replace(/^#+/, "")}`;
    if (tag === "#") return;
    if (!HASHTAG_PATTERN.test(tag))
      return setProblem("Use letters, digits or _ after the #, with no spaces.");
    if (hashtags.some((existing) => existing.toLowerCase() === tag.toLowerCase())) {
      return setProblem(`${tag} is already there.`);
    }
    onChange([...hashtags, tag]);
    setDraft("");
    setProblem(null);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === "Enter" || event.key === ",") {
      event.preventDefault();
      add();
    }
  }

  return (
    <div className="space-y-2">
      <div className="flex items-center justify-between">
        <span className="text-sm font-medium text-slate-700">Hashtags</span>
        <span
          data-testid="hashtag-count"
          className={`text-xs tabular-nums ${full ? "text-amber-700" : "text-slate-500"}`}
        >
          {hashtags.length} / {max}
        </span>
      </div>
      <ul className="flex flex-wrap gap-2" aria-label="Hashtags">
        {hashtags.map((tag) => (
          <li
            key={tag}
            className="inline-flex items-center gap-1 rounded-full bg-brand-50 py-1 pr-1 pl-3 text-sm text-brand-700"
          >
            {tag}
            <button
              type="button"
              onClick={() => onChange(hashtags.filter((existing) => existing !== tag))}
              className="grid size-5 place-items-center rounded-full text-brand-600 hover:bg-brand-100"
              aria-label={`Remove ${tag}`}
            >
              ×
            </button>
          </li>
        ))}
        {!hashtags.length && <li className="text-sm text-slate-500">No hashtags yet.</li>}
      </ul>
      <div className="flex gap-2">
        <input
          aria-label="New hashtag"
          value={draft}
          disabled={full}
          onChange={(event) => {
            setDraft(event.target.value);
            setProblem(null);
          }}
          onKeyDown={onKeyDown}
          placeholder={full ? `At most ${max} hashtags` : "#NewTag"}
          className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm shadow-sm outline-none focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 disabled:bg-slate-50"
        />
        <button
          type="button"
          onClick={add}
          disabled={full || !draft.trim()}
          className="rounded-lg border border-slate-300 bg-white px-3 text-sm font-medium text-slate-700 hover:bg-slate-100 disabled:opacity-50"
        >
          Add
        </button>
      </div>
      {problem && (
        <p role="alert" className="text-xs text-red-600">
          {problem}
        </p>
      )}
    </div>
  );
}
