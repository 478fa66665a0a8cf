"use client";

import { useQuery } from "@tanstack/react-query";

type SessionJson = { accessToken?: string } | null;

/** Reads the session's access token from next-auth's session endpoint (which also refreshes it). */
async function readAccessToken(): Promise<string | null> {
  const response = await fetch("/api/auth/session", { cache: "no-store" });
  if (!response.ok) return null;
  const session = (await response.json().catch(() => null)) as SessionJson;
  return session?.accessToken ?? null;
}

/**
 * The one place the docs read the signed-in user's token. `getToken` asks again at send time, so a
 * token that expired while the page sat open is never sent.
 */
export function useAccessToken() {
  const session = useQuery({ queryKey: ["docs-access-token"], queryFn: readAccessToken, staleTime: 60_000 });
  const state = session.isPending ? "loading" : session.data ? "signed_in" : "signed_out";
  return { state, token: session.data ?? null, getToken: readAccessToken } as const;
}
