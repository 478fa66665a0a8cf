"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button, ErrorNotice, Field, TextInput } from "@/components/ui/primitives";
import { callApi } from "@/lib/client/api-client";
import { cancelPublication, reschedulePublication } from "@/lib/client/operations";
import { queryKeys } from "@/lib/client/queries";
import type { PublicationView } from "@/lib/contracts/publishing";
import { formatInZone, fromZonedInputValue, toZonedInputValue } from "@/lib/contracts/time-zone";

/**
 * What an owner can still do to a scheduled publication from the post: give it another time (typed in the
 * brand's zone) or cancel it, after a confirmation. The server decides: a publication that has started in
 * the meantime is refused with the reason shown, and nothing changes.
 */
export function ScheduledActions({
  publication,
  channelLabel,
  timeZone,
}: {
  publication: PublicationView;
  /** Where it goes, as `publicationChannelLabel` names it. */
  channelLabel: string;
  timeZone: string;
}) {
  const queryClient = useQueryClient();
  const [mode, setMode] = useState<"idle" | "time" | "cancel">("idle");
  const [at, setAt] = useState("");
  const id = publication.publicationId;
  const saved = (next: PublicationView) => {
    queryClient.setQueryData(queryKeys.publications.detail(id), next);
    void queryClient.invalidateQueries({ queryKey: queryKeys.publications.all });
    setMode("idle");
  };
  const reschedule = useMutation({
    mutationFn: async (publishAt: string) =>
      (await callApi(reschedulePublication, { params: { publicationId: id }, body: { publishAt } })).data,
    onSuccess: saved,
  });
  const open = (next: "time" | "cancel") => {
    reschedule.reset();
    if (next === "time") setAt(toZonedInputValue(new Date(publication.publishAt), timeZone));
    setMode(next);
  };
  const close = () => setMode("idle");

  if (mode === "time") {
    const typed = at ? fromZonedInputValue(at, timeZone) : null;
    return (
      <form
        aria-label="Change the time of this publication"
        data-testid="publication-time-form"
        className="space-y-2 rounded-lg border border-sky-200 bg-white p-3"
        onSubmit={(event) => {
          event.preventDefault();
          if (typed) reschedule.mutate(typed.toISOString());
        }}
        onKeyDown={(event) => {
          if (event.key === "Escape") close();
        }}
      >
        <Field label={`New time (${timeZone})`} hint="In the brand's time zone.">
          <TextInput
            type="datetime-local"
            value={at}
            onChange={(event) => setAt(event.target.value)}
            required
            autoFocus
          />
        </Field>
        {reschedule.error && <ErrorNotice message={reschedule.error.message} />}
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={reschedule.isPending || !typed}>
            {reschedule.isPending ? "Saving…" : "Save time"}
          </Button>
          <Button variant="secondary" onClick={close}>
            Keep the time
          </Button>
        </div>
      </form>
    );
  }

  if (mode === "cancel") {
    return (
      <CancelPublicationForm
        publication={publication}
        channelLabel={channelLabel}
        timeZone={timeZone}
        onDone={saved}
        onKeep={close}
      />
    );
  }

  return (
    <div className="flex flex-wrap gap-2">
      <Button variant="secondary" onClick={() => open("time")}>
        Change time
      </Button>
      <Button variant="danger" onClick={() => open("cancel")}>
        Cancel
      </Button>
    </div>
  );
}

/**
 * The confirmation before a scheduled publication is canceled, with focus on keeping it. A refusal (it has
 * started in the meantime) is shown in the form and changes nothing.
 */
export function CancelPublicationForm({
  publication,
  channelLabel,
  timeZone,
  onDone,
  onKeep,
}: {
  publication: PublicationView;
  channelLabel: string;
  timeZone: string;
  onDone: (canceled: PublicationView) => void;
  onKeep: () => void;
}) {
  const cancel = useMutation({
    mutationFn: async () =>
      (await callApi(cancelPublication, { params: { publicationId: publication.publicationId } })).data,
    onSuccess: onDone,
  });
  return (
    <form
      aria-label="Cancel this publication"
      data-testid="publication-cancel-confirm"
      className="space-y-2 rounded-lg border border-red-200 bg-red-50 p-3"
      onSubmit={(event) => {
        event.preventDefault();
        cancel.mutate();
      }}
      onKeyDown={(event) => {
        if (event.key === "Escape") onKeep();
      }}
    >
      <p className="text-slate-800">
        The post of <strong>{formatInZone(publication.publishAt, timeZone)}</strong> will not be published on{" "}
        {channelLabel}. Cancel it?
      </p>
      {cancel.error && <ErrorNotice message={cancel.error.message} />}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" variant="danger" disabled={cancel.isPending}>
          {cancel.isPending ? "Canceling…" : "Cancel publication"}
        </Button>
        <Button variant="secondary" onClick={onKeep} autoFocus>
          Keep it scheduled
        </Button>
      </div>
    </form>
  );
}
