"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import type { z } from "zod";
import { Button, Card, ErrorNotice, Field, TextInput } from "@/components/ui/primitives";
import { callApi } from "@/lib/client/api-client";
import { createApiKey, revokeApiKey } from "@/lib/client/operations";
import { apiKeysQuery, queryKeys } from "@/lib/client/queries";
import type { createApiKeyResponse } from "@/lib/contracts/keys";

const formatDate = (value: string | null) => (value ? new Date(value).toLocaleString() : "never");

export function ApiKeysPanel() {
  const queryClient = useQueryClient();
  const [created, setCreated] = useState<z.infer<typeof createApiKeyResponse> | null>(null);
  const [copied, setCopied] = useState(false);

  const keys = useQuery(apiKeysQuery());
  const create = useMutation({
    mutationFn: async (name: string) => (await callApi(createApiKey, { body: { name } })).data,
    onSuccess: (key) => {
      setCreated(key);
      setCopied(false);
      void queryClient.invalidateQueries({ queryKey: queryKeys.apiKeys });
    },
  });
  const revoke = useMutation({
    mutationFn: async (keyId: string) => callApi(revokeApiKey, { params: { keyId } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.apiKeys }),
  });

  function onCreate(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    create.mutate(String(new FormData(form).get("name")), { onSuccess: () => form.reset() });
  }

  return (
    <div className="space-y-6">
      <Card>
        <h2 className="font-semibold">Create an API key</h2>
        <p className="mt-1 text-sm text-slate-600">
          Scripts and integrations send it as{" "}
          <code className="rounded bg-slate-100 px-1">Authorization: Bearer …</code>.
        </p>
        <form onSubmit={onCreate} className="mt-4 flex items-end gap-3">
          <div className="flex-1">
            <Field label="Key name">
              <TextInput name="name" placeholder="Publishing script" required maxLength={100} />
            </Field>
          </div>
          <Button type="submit" disabled={create.isPending}>
            {create.isPending ? "Creating…" : "Create key"}
          </Button>
        </form>
        {create.error && (
          <div className="mt-3">
            <ErrorNotice message={create.error.message} />
          </div>
        )}
        {created && (
          <div
            data-testid="new-api-key"
            className="mt-4 space-y-2 rounded-lg border border-amber-200 bg-amber-50 p-4"
          >
            <p className="text-sm font-medium text-amber-900">
              Copy this key now. It will not be shown again.
            </p>
            <div className="flex items-center gap-2">
              <code className="flex-1 break-all rounded bg-white px-2 py-1 font-mono text-sm">
                {created.key}
              </code>
              <Button
                variant="secondary"
                onClick={async () => {
                  await navigator.clipboard.writeText(created.key).catch(() => {});
                  setCopied(true);
                }}
              >
                {copied ? "Copied" : "Copy"}
              </Button>
            </div>
          </div>
        )}
      </Card>

      <Card>
        <h2 className="font-semibold">Your API keys</h2>
        {keys.isPending && <p className="mt-4 text-sm text-slate-500">Loading keys…</p>}
        {keys.error && (
          <div className="mt-4">
            <ErrorNotice message={keys.error.message} onRetry={() => keys.refetch()} />
          </div>
        )}
        {keys.data && keys.data.items.length === 0 && (
          <p className="mt-4 text-sm text-slate-500">
            No keys yet. Create one above to call the API from a script.
          </p>
        )}
        {keys.data && keys.data.items.length > 0 && (
          // A list rather than a table: on a phone a row of five columns squeezed the name and dates.
          <ul className="mt-4 divide-y divide-slate-100 text-sm" aria-label="API keys">
            {keys.data.items.map((key) => (
              <li
                key={key.keyId}
                data-testid="api-key-row"
                className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 py-3"
              >
                <div className="min-w-0">
                  <p className="break-words font-medium text-slate-800">
                    {key.name}{" "}
                    <span className="font-mono text-sm font-normal text-slate-600">{key.hint}</span>
                  </p>
                  <p className="text-xs text-slate-500">
                    Created {formatDate(key.createdAt)} · Last used {formatDate(key.lastUsedAt)}
                  </p>
                </div>
                <Button
                  variant="danger"
                  disabled={revoke.isPending}
                  onClick={() => {
                    if (window.confirm(`Revoke "${key.name}"? Scripts using it stop working at once.`)) {
                      revoke.mutate(key.keyId);
                    }
                  }}
                >
                  Revoke
                </Button>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}
