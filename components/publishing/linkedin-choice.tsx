"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { Button, Card, ErrorNotice } from "@/components/ui/primitives";
import { authorizedFetch, toError } from "@/lib/client/api-client";

type Choice = {
  brandId: string;
  brandName: string;
  accounts: {
    externalId: string;
    accountName: string;
    accountHandle: string | null;
    kind: "member" | "page";
  }[];
};

const CHOICE_PATH = "/api/channels/oauth/linkedin/choice";

async function send<T>(init?: RequestInit): Promise<T> {
  const response = await authorizedFetch(CHOICE_PATH, init);
  if (!response.ok) throw await toError(response);
  return (await response.json()) as T;
}

/**
 * /brands/{brandId}/connect/linkedin: LinkedIn allowed the member and found company pages they may post as;
 * the owner ticks which of them the brand gets (nothing is connected until they do).
 */
export function LinkedInChoice({ brandId }: { brandId: string }) {
  const choice = useQuery({
    queryKey: ["linkedin-choice", brandId],
    queryFn: () => send<Choice>({ cache: "no-store" }),
    retry: false,
  });
  const [picked, setPicked] = useState<Set<string> | null>(null);
  const chosen =
    picked ?? new Set(choice.data?.accounts.filter((a) => a.kind === "member").map((a) => a.externalId));
  const connect = useMutation({
    mutationFn: () =>
      send<{ brandId: string; channelIds: string[] }>({
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ externalIds: [...chosen] }),
      }),
    onSuccess: (done) => window.location.assign(`/brands/${done.brandId}?connected=${done.channelIds[0]}`),
  });
  const toggle = (externalId: string) => {
    const next = new Set(chosen);
    if (next.has(externalId)) next.delete(externalId);
    else next.add(externalId);
    setPicked(next);
  };

  return (
    <div className="mx-auto max-w-lg space-y-6 pt-6">
      <h1 className="text-2xl font-semibold tracking-tight">Connect LinkedIn</h1>
      <Card className="space-y-4">
        {choice.isPending && <p className="text-sm text-slate-600">Reading what LinkedIn allowed…</p>}
        {choice.error && (
          <div className="space-y-3">
            <ErrorNotice message={choice.error.message} />
            <Link href={`/brands/${brandId}`} className="text-sm font-medium underline">
              Back to the brand's settings
            </Link>
          </div>
        )}
        {choice.data && (
          <form
            className="space-y-4"
            onSubmit={(event) => {
              event.preventDefault();
              connect.mutate();
            }}
          >
            <fieldset className="space-y-3">
              <legend className="text-sm text-slate-700">
                LinkedIn lets <strong>{choice.data.brandName}</strong> post as these accounts. Choose the ones
                to connect; the others stay unconnected.
              </legend>
              {choice.data.accounts.map((account) => (
                <label
                  key={account.externalId}
                  className="flex items-start gap-3 rounded-lg border border-slate-200 p-3 hover:bg-slate-50"
                >
                  <input
                    type="checkbox"
                    className="mt-1 h-4 w-4 shrink-0"
                    checked={chosen.has(account.externalId)}
                    onChange={() => toggle(account.externalId)}
                  />
                  <span className="min-w-0">
                    <span className="block font-medium text-slate-800">{account.accountName}</span>
                    <span className="block break-words text-sm text-slate-600">
                      {account.kind === "member" ? "You, as a member" : "Company page"}
                      {account.accountHandle ? ` · ${account.accountHandle}` : ""}
                    </span>
                  </span>
                </label>
              ))}
            </fieldset>
            {connect.error && <ErrorNotice message={connect.error.message} />}
            <div className="flex flex-wrap items-center gap-3">
              <Button type="submit" disabled={chosen.size === 0 || connect.isPending || connect.isSuccess}>
                {connect.isPending ? "Connecting…" : `Connect ${chosen.size} selected`}
              </Button>
              <Link href={`/brands/${brandId}`} className="text-sm font-medium underline">
                Cancel
              </Link>
            </div>
          </form>
        )}
      </Card>
    </div>
  );
}
