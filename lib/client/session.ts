"use client";

import { queryOptions, useQuery } from "@tanstack/react-query";
import type { Session } from "next-auth";

/**
 * The signed-in session, read from next-auth's own endpoint (GET /api/auth/session, what next-auth's
 * getSession calls) through the app's QueryClient, so pages need not ship next-auth's client and its
 * SessionProvider just to know who is signed in. Reading it also refreshes the access token (the jwt
 * callback), so a tab that stays open keeps a fresh one. signIn and signOut still come from next-auth/react,
 * loaded only where they are used.
 */
export const SESSION_PATH = "/api/auth/session";

/** Refetching every 4 minutes keeps the 15-minute access token fresh in open tabs. */
const SESSION_REFETCH_MS = 4 * 60 * 1000;

export async function fetchSession(signal?: AbortSignal): Promise<Session | null> {
  const response = await fetch(SESSION_PATH, { cache: "no-store", signal });
  if (!response.ok) throw new Error(`The session answered ${response.status}.`);
  const session = (await response.json()) as Session | Record<string, never> | null;
  // next-auth answers {} when nobody is signed in.
  return session && Object.keys(session).length > 0 ? (session as Session) : null;
}

export const sessionQuery = () =>
  queryOptions({
    queryKey: ["session"] as const,
    queryFn: ({ signal }) => fetchSession(signal),
    refetchInterval: SESSION_REFETCH_MS,
    refetchOnWindowFocus: true,
  });

export type SessionState =
  | { status: "loading"; data: null }
  | { status: "authenticated"; data: Session }
  | { status: "unauthenticated"; data: null };

/** Like next-auth's useSession: loading, then authenticated with the session or unauthenticated. */
export function useSession(): SessionState {
  const query = useQuery(sessionQuery());
  if (query.data) return { status: "authenticated", data: query.data };
  if (query.isPending) return { status: "loading", data: null };
  return { status: "unauthenticated", data: null };
}
