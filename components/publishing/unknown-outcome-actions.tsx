"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button, ErrorNotice, Field, TextInput } from "@/components/ui/primitives";
import { callApi } from "@/lib/client/api-client";
import { markPublicationPosted, sendPublicationAgain } from "@/lib/client/operations";
import { queryKeys } from "@/lib/client/queries";
import type { PublicationView } from "@/lib/contracts/publishing";

/**
 * A publication whose outcome is unknown (the platform may or may not have posted it): the owner checks the
 * channel, then says "It was posted" (with the post's link) or "Send again". Nothing is re-sent on its own.
 */
export function UnknownOutcomeActions({ publication }: { publication: PublicationView }) {
  const queryClient = useQueryClient();
  const [mode, setMode] = useState<"idle" | "posted">("idle");
  const [link, setLink] = useState("");
  const params = { publicationId: publication.publicationId };
  const saved = (next: PublicationView) => {
    queryClient.setQueryData(queryKeys.publications.detail(publication.publicationId), next);
    void queryClient.invalidateQueries({ queryKey: queryKeys.publications.all });
    void queryClient.invalidateQueries({ queryKey: queryKeys.posts.detail(publication.postId) });
    setMode("idle");
  };
  const posted = useMutation({
    mutationFn: async (permalink: string) =>
      (await callApi(markPublicationPosted, { params, body: { permalink } })).data,
    onSuccess: saved,
  });
  const again = useMutation({
    mutationFn: async () => (await callApi(sendPublicationAgain, { params })).data,
    onSuccess: saved,
  });
  const error = posted.error ?? again.error;
  const busy = posted.isPending || again.isPending;

  return (
    <div className="space-y-2" data-testid="unknown-outcome-actions">
      <p className="text-slate-700">Check the channel: is the post there?</p>
      {mode === "posted" ? (
        <form
          aria-label="The post's link"
          className="space-y-2 rounded-lg border border-slate-200 bg-white p-3"
          onSubmit={(event) => {
            event.preventDefault();
            if (link.trim()) posted.mutate(link.trim());
          }}
        >
          <Field label="The post's link">
            <TextInput
              type="url"
              required
              value={link}
              placeholder="https://"
              onChange={(event) => setLink(event.target.value)}
            />
          </Field>
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={busy || !link.trim()}>
              {posted.isPending ? "Saving…" : "Save link"}
            </Button>
            <Button type="button" variant="secondary" onClick={() => setMode("idle")} disabled={busy}>
              Back
            </Button>
          </div>
        </form>
      ) : (
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" onClick={() => setMode("posted")} disabled={busy}>
            It was posted
          </Button>
          <Button variant="secondary" onClick={() => again.mutate()} disabled={busy}>
            {again.isPending ? "Sending…" : "Send again"}
          </Button>
        </div>
      )}
      {error && <ErrorNotice message={error.message} />}
    </div>
  );
}
