"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Button, Card, ErrorNotice, Field, TextInput } from "@/components/ui/primitives";
import { callApi } from "@/lib/client/api-client";
import { createWebhook, deleteWebhook, sendTestWebhook } from "@/lib/client/operations";
import { queryKeys, webhookQueries } from "@/lib/client/queries";
import { WEBHOOK_EVENTS } from "@/lib/contracts/webhook-rules";
import type { CreateWebhookBody, CreateWebhookResponse } from "@/lib/contracts/webhooks";
import { WebhookDeliveries } from "./webhook-deliveries";

/** Settings: the user's Standard Webhooks endpoints (list, add, delete, deliveries, send a test event). */
export function WebhooksPanel() {
  const queryClient = useQueryClient();
  const [created, setCreated] = useState<CreateWebhookResponse | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.webhooks.all });

  const webhooks = useQuery(webhookQueries.list());
  const create = useMutation({
    mutationFn: async (body: { url: string; events: string[] }) =>
      (await callApi(createWebhook, { body: body as CreateWebhookBody })).data,
    onSuccess: (webhook) => {
      setCreated(webhook);
      void refresh();
    },
  });
  const remove = useMutation({
    mutationFn: async (webhookId: string) => callApi(deleteWebhook, { params: { webhookId } }),
    onSuccess: () => refresh(),
  });
  const test = useMutation({
    mutationFn: async (webhookId: string) => callApi(sendTestWebhook, { params: { webhookId } }),
    onSuccess: (_result, webhookId) => {
      setOpen(webhookId);
      void refresh();
    },
  });

  function onCreate(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    create.mutate(
      { url: String(data.get("url")), events: data.getAll("events").map(String) },
      { onSuccess: () => form.reset() },
    );
  }

  return (
    <div className="space-y-6">
      <Card>
        <h2 className="font-semibold">Add a webhook</h2>
        <p className="mt-1 text-sm text-slate-600">
          We POST signed{" "}
          <a className="underline" href="https://www.standardwebhooks.com/">
            Standard Webhooks
          </a>{" "}
          events to your URL when a video is done, so you do not have to poll.
        </p>
        <form onSubmit={onCreate} className="mt-4 space-y-3">
          <Field label="Endpoint URL">
            <TextInput name="url" type="url" placeholder="https://hooks.example.com/brand-studio" required />
          </Field>
          <fieldset className="flex flex-wrap gap-4 text-sm">
            <legend className="mb-1 font-medium text-slate-700">Events</legend>
            {WEBHOOK_EVENTS.map((event) => (
              <label key={event} className="flex items-center gap-2">
                <input
                  type="checkbox"
                  name="events"
                  value={event}
                  defaultChecked={event !== "video.canceled"}
                />
                <code>{event}</code>
              </label>
            ))}
          </fieldset>
          <Button type="submit" disabled={create.isPending}>
            {create.isPending ? "Adding…" : "Add webhook"}
          </Button>
        </form>
        {create.error && (
          <div className="mt-3">
            <ErrorNotice message={create.error.message} />
          </div>
        )}
        {created && (
          <div
            data-testid="new-webhook-secret"
            className="mt-4 space-y-2 rounded-lg border border-amber-200 bg-amber-50 p-4"
          >
            <p className="text-sm font-medium text-amber-900">
              Copy the signing secret now. It will not be shown again.
            </p>
            <code className="block break-all rounded bg-white px-2 py-1 font-mono text-sm">
              {created.secret}
            </code>
          </div>
        )}
      </Card>

      <Card>
        <h2 className="font-semibold">Your webhooks</h2>
        {webhooks.isPending && <p className="mt-4 text-sm text-slate-500">Loading webhooks…</p>}
        {webhooks.error && (
          <div className="mt-4">
            <ErrorNotice message={webhooks.error.message} onRetry={() => webhooks.refetch()} />
          </div>
        )}
        {webhooks.data?.items.length === 0 && (
          <p className="mt-4 text-sm text-slate-500">No webhooks yet. Add one above.</p>
        )}
        <ul className="mt-4 space-y-3">
          {webhooks.data?.items.map((webhook) => (
            <li
              key={webhook.webhookId}
              data-testid="webhook-row"
              className="rounded-lg border border-slate-200 p-3"
            >
              <div className="flex flex-wrap items-center gap-2">
                <span className="w-full min-w-0 break-all font-mono text-sm sm:w-auto sm:flex-1">
                  {webhook.url}
                </span>
                <Button
                  variant="secondary"
                  disabled={test.isPending}
                  onClick={() => test.mutate(webhook.webhookId)}
                >
                  Send test event
                </Button>
                <Button
                  variant="secondary"
                  onClick={() => setOpen(open === webhook.webhookId ? null : webhook.webhookId)}
                >
                  {open === webhook.webhookId ? "Hide deliveries" : "Deliveries"}
                </Button>
                <Button
                  variant="danger"
                  disabled={remove.isPending}
                  onClick={() => {
                    if (window.confirm(`Delete the webhook to ${webhook.url}? No more events go to it.`)) {
                      remove.mutate(webhook.webhookId);
                    }
                  }}
                >
                  Delete
                </Button>
              </div>
              <p className="mt-1 text-xs text-slate-500">{webhook.events.join(" · ")}</p>
              {open === webhook.webhookId && (
                <div className="mt-3 border-t border-slate-100 pt-2">
                  <WebhookDeliveries webhookId={webhook.webhookId} />
                </div>
              )}
            </li>
          ))}
        </ul>
        {test.error && (
          <div className="mt-3">
            <ErrorNotice message={test.error.message} />
          </div>
        )}
      </Card>
    </div>
  );
}
