"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { NotFoundNotice } from "@/components/ui/not-found-notice";
import { Button, Card, ErrorNotice } from "@/components/ui/primitives";
import { ApiClientError, callApi } from "@/lib/client/api-client";
import { acceptInvitation, getInvitation } from "@/lib/client/operations";
import { useSession } from "@/lib/client/session";

const ROLE_WORDS = {
  viewer: "read its posts, videos and activity",
  editor: "write drafts, make videos and submit posts for approval",
  owner: "manage the brand, its members, and approve posts",
} as const;

/** Why a link cannot be used, by the 410's `details.reason`; an unknown token (404) is "not valid". */
const UNUSABLE = {
  accepted: "This invitation has already been used.",
  expired: "This invitation has expired.",
  revoked: "This invitation was withdrawn by the brand's owner.",
} as const;

function unusableReason(error: Error | null): string | null {
  if (!(error instanceof ApiClientError)) return null;
  if (error.status === 404)
    return "This invitation link is not valid: it may be incomplete, or a newer one replaced it.";
  if (error.status !== 410) return null;
  const reason = (error.details as { reason?: string } | undefined)?.reason;
  return UNUSABLE[reason as keyof typeof UNUSABLE] ?? error.message;
}

/** /invite/{token}: what the invitation offers, then sign up or in, then join. */
export function InviteAccept({ token }: { token: string }) {
  const session = useSession();
  const signedInAs = session.data?.user?.id ?? null;
  const preview = useQuery({
    queryKey: ["invitation", token, signedInAs],
    // The link is the credential; signed in, the session's token lets the answer say whether we are a member.
    queryFn: async ({ signal }) => (await callApi(getInvitation, { params: { token }, signal })).data,
    enabled: session.status !== "loading",
    retry: false,
  });
  const accept = useMutation({
    mutationFn: async () => (await callApi(acceptInvitation, { params: { token }, body: {} })).data,
    onSuccess: (joined) => window.location.assign(`/brands/${joined.brandId}`),
  });
  const here = `/invite/${token}`;

  const unusable = unusableReason(preview.error);
  if (unusable) {
    return (
      <div className="mx-auto max-w-md pt-6">
        <NotFoundNotice
          title="This invitation can't be used"
          message={unusable}
          hint="Ask the brand's owner to send you a new invitation link."
          href="/"
          linkLabel="Go to the home page"
        />
      </div>
    );
  }

  return (
    <div className="mx-auto max-w-md space-y-6 pt-6">
      <h1 className="text-center text-2xl font-semibold tracking-tight">Join a brand on Brand Studio</h1>
      <Card className="space-y-4">
        {preview.isPending && <p className="text-sm text-slate-600">Opening the invitation…</p>}
        {preview.error && <ErrorNotice message={preview.error.message} />}
        {preview.data && (
          <>
            <p data-testid="invitation-summary">
              {preview.data.invitedBy ?? "An owner"} invited <strong>{preview.data.email}</strong> to{" "}
              <strong>{preview.data.brandName}</strong> as <strong>{preview.data.role}</strong>: you will be
              able to {ROLE_WORDS[preview.data.role]}.
            </p>
            <p className="text-sm text-slate-600">
              The link works once, until {new Date(preview.data.expiresAt).toLocaleString()}.
            </p>
            {preview.data.yourRole ? (
              <div className="space-y-2" data-testid="already-member">
                <p className="text-sm">
                  You are already a member of <strong>{preview.data.brandName}</strong> as{" "}
                  <strong>{preview.data.yourRole}</strong>, so there is nothing to join. The invitation stays
                  open for {preview.data.email}.
                </p>
                <Link
                  href={`/brands/${preview.data.brandId}`}
                  className="block rounded-lg bg-brand-600 px-4 py-2 text-center text-sm font-medium text-white hover:bg-brand-700"
                >
                  Open {preview.data.brandName}
                </Link>
                <p className="text-xs text-slate-500">Signed in as {session.data?.user?.email}.</p>
              </div>
            ) : session.status === "authenticated" ? (
              <div className="space-y-2">
                <Button onClick={() => accept.mutate()} disabled={accept.isPending} className="w-full">
                  {accept.isPending ? "Joining…" : `Join ${preview.data.brandName}`}
                </Button>
                <p className="text-xs text-slate-500">Signed in as {session.data.user?.email}.</p>
                {accept.error && <ErrorNotice message={accept.error.message} />}
              </div>
            ) : session.status === "unauthenticated" ? (
              <div className="flex flex-col gap-2 sm:flex-row">
                <Link
                  href={`/signup?callbackUrl=${encodeURIComponent(here)}`}
                  className="flex-1 rounded-lg bg-brand-600 px-4 py-2 text-center text-sm font-medium text-white hover:bg-brand-700"
                >
                  Create an account
                </Link>
                <Link
                  href={`/login?callbackUrl=${encodeURIComponent(here)}`}
                  className="flex-1 rounded-lg border border-slate-300 px-4 py-2 text-center text-sm font-medium hover:bg-slate-50"
                >
                  Sign in
                </Link>
              </div>
            ) : null}
          </>
        )}
      </Card>
    </div>
  );
}
