"use client";

import { useMutation } from "@tanstack/react-query";
import { Button, Card, ErrorNotice } from "@/components/ui/primitives";
import { type ApiClientError, callApi } from "@/lib/client/api-client";
import { publishAllLanguages } from "@/lib/client/operations";
import type { BrandRole } from "@/lib/contracts/enums";
import { isRightToLeft, nativeLanguageName } from "@/lib/contracts/language-tags";
import { can } from "@/lib/contracts/permissions";
import type { PostView } from "@/lib/contracts/posts";

type PublishResult = {
  items: {
    postId: string;
    language: string;
    channelId: string;
    publicationId: string | null;
    error: { message: string } | null;
  }[];
  unmatched: string[];
};

/**
 * The language versions of one post group (one brief in the brand's languages), side by side: each
 * language's newest draft, a switcher that opens it in the editor, and Publish all languages, which sends
 * each version to the channels of its language.
 */
export function LanguageVersions({
  versions,
  activeId,
  unsaved,
  role,
  onSelect,
}: {
  versions: PostView[];
  activeId: string;
  unsaved: Set<string>;
  role?: BrandRole;
  onSelect: (postId: string) => void;
}) {
  const publish = useMutation<PublishResult, ApiClientError, void>({
    mutationFn: async () =>
      (await callApi(publishAllLanguages, { params: { postId: activeId }, body: {} })).data,
  });
  const mayPublish = role ? can(role, "publication.create") : false;
  const pending = unsaved.size > 0;

  return (
    <Card className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="font-semibold">Languages</h2>
        <div
          role="tablist"
          aria-label="Language"
          className="flex flex-wrap gap-1 rounded-lg bg-slate-100 p-1"
        >
          {versions.map((version) => (
            <button
              key={version.postId}
              type="button"
              role="tab"
              aria-selected={version.postId === activeId}
              onClick={() => onSelect(version.postId)}
              className={`rounded-md px-2.5 py-1 text-sm ${
                version.postId === activeId
                  ? "bg-white font-medium text-slate-900 shadow-sm"
                  : "text-slate-700"
              }`}
            >
              <span lang={version.language}>{nativeLanguageName(version.language)}</span>
              {unsaved.has(version.postId) ? " •" : ""}
            </button>
          ))}
        </div>
      </div>
      <ul className="grid gap-3 sm:grid-cols-2">
        {versions.map((version) => (
          <li
            key={version.postId}
            className={`rounded-lg border p-3 text-sm ${
              version.postId === activeId ? "border-brand-500 bg-brand-50" : "border-slate-200"
            }`}
          >
            <p className="mb-1 flex justify-between gap-2 text-xs text-slate-600">
              <span>
                {nativeLanguageName(version.language)} · {version.language}
              </span>
              <span>{version.status.replace("_", " ")}</span>
            </p>
            <p
              lang={version.language}
              dir={isRightToLeft(version.language) ? "rtl" : "ltr"}
              className="line-clamp-4 whitespace-pre-line break-words text-slate-800"
            >
              {version.caption}
            </p>
          </li>
        ))}
      </ul>
      {mayPublish && (
        <div className="space-y-2">
          <Button
            variant="secondary"
            disabled={publish.isPending || pending}
            onClick={() => {
              if (window.confirm("Publish every language version to the channels of its language now?"))
                publish.mutate();
            }}
          >
            {publish.isPending ? "Publishing…" : "Publish all languages"}
          </Button>
          {pending && <p className="text-xs text-slate-600">Save your edits first.</p>}
          {publish.error && <ErrorNotice message={publish.error.message} />}
          {publish.data && (
            <ul role="status" className="space-y-1 text-sm">
              {publish.data.items.map((item) => (
                <li
                  key={`${item.postId}-${item.channelId}`}
                  className={item.error ? "text-red-700" : "text-slate-700"}
                >
                  {nativeLanguageName(item.language)}:{" "}
                  {item.error ? item.error.message : "sent to its channel (see the calendar)"}
                </li>
              ))}
              {publish.data.items.length === 0 && (
                <li className="text-slate-700">No channel speaks these languages yet.</li>
              )}
              {publish.data.unmatched.map((language) => (
                <li key={language} className="text-slate-600">
                  {nativeLanguageName(language)}: no channel speaks it. Set a channel's language in the
                  brand's channels.
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </Card>
  );
}
