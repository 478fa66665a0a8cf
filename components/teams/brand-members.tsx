"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { type FormEvent, type ReactNode, useState } from "react";
import { CopyButton } from "@/components/api-docs/copy-button";
import { Button, Card, ErrorNotice, Field, TextInput } from "@/components/ui/primitives";
import { ApiClientError, callApi } from "@/lib/client/api-client";
import {
  createInvitation,
  removeMember,
  resendInvitation,
  revokeInvitation,
  updateMember,
} from "@/lib/client/operations";
import { brandQueries, queryKeys } from "@/lib/client/queries";
import { useSession } from "@/lib/client/session";
import { BRAND_ROLES, type BrandRole } from "@/lib/contracts/enums";
import { can } from "@/lib/contracts/permissions";

const SELECT =
  "rounded-lg border border-slate-300 bg-white px-2 py-1.5 text-sm shadow-sm focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30";

/** What an invitation answer says, its single-use link in a read-only field (it scrolls inside), and Copy. */
function LinkNotice({ link, children }: { link: string; children: ReactNode }) {
  return (
    <div
      role="status"
      className="min-w-0 space-y-2 rounded-lg wrap-anywhere bg-emerald-50 p-3 text-sm text-emerald-900"
    >
      {children}
      <div className="flex min-w-0 items-center gap-2">
        <input
          readOnly
          aria-label="Invitation link"
          data-testid="invitation-link"
          value={link}
          onFocus={(event) => event.currentTarget.select()}
          className="min-w-0 flex-1 rounded border border-emerald-200 bg-white px-2 py-1 font-mono text-xs"
        />
        <CopyButton
          text={link}
          label="Copy link"
          className="shrink-0 rounded-md border border-emerald-300 bg-white px-2.5 py-1 text-xs font-medium text-emerald-900 hover:bg-emerald-100"
        />
      </div>
    </div>
  );
}

function InviteForm({ brandId }: { brandId: string }) {
  const queryClient = useQueryClient();
  const [role, setRole] = useState<BrandRole>("editor");
  const invite = useMutation({
    mutationFn: async (body: { email: string; role: BrandRole }) => {
      const { status, data } = await callApi(createInvitation, { params: { brandId }, body });
      // 200: the email already had an open invitation, now re-issued with a new link.
      return { ...data, reissued: status === 200 };
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.brands.invitations(brandId) }),
  });
  const fieldError =
    invite.error instanceof ApiClientError && Array.isArray(invite.error.details)
      ? (invite.error.details as { path: string; message: string }[]).find((d) => d.path === "email")?.message
      : undefined;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const target = event.currentTarget;
    invite.mutate({ email: String(form.get("email")), role }, { onSuccess: () => target.reset() });
  }

  return (
    <Card className="space-y-4">
      <h2 className="font-semibold">Invite someone</h2>
      <form onSubmit={onSubmit} className="grid gap-3 sm:grid-cols-[1fr_9rem_auto] sm:items-end">
        <Field label="Email" error={fieldError}>
          <TextInput name="email" type="email" required placeholder="sam@example.com" />
        </Field>
        <Field label="Role">
          <select
            name="role"
            value={role}
            onChange={(event) => setRole(event.target.value as BrandRole)}
            className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30"
          >
            {BRAND_ROLES.map((item) => (
              <option key={item} value={item}>
                {item}
              </option>
            ))}
          </select>
        </Field>
        <Button type="submit" disabled={invite.isPending}>
          {invite.isPending ? "Inviting…" : "Invite"}
        </Button>
      </form>
      {invite.error && !fieldError && <ErrorNotice message={invite.error.message} />}
      {invite.data && (
        <LinkNotice link={invite.data.link}>
          {invite.data.reissued && (
            <p>
              {invite.data.email} already had an invitation: it has a new link now, and the earlier one no
              longer works.
            </p>
          )}
          <p>
            {invite.data.emailed
              ? `We emailed the invitation to ${invite.data.email}. You can also send them this link; it works once, for 7 days:`
              : `Send this link to ${invite.data.email}; it works once, for 7 days:`}
          </p>
        </LinkNotice>
      )}
    </Card>
  );
}

function Invitations({ brandId }: { brandId: string }) {
  const queryClient = useQueryClient();
  const invitations = useQuery(brandQueries.invitations(brandId));
  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.brands.invitations(brandId) });
  const resend = useMutation({
    mutationFn: async (invitationId: string) =>
      (await callApi(resendInvitation, { params: { brandId, invitationId }, body: {} })).data,
    onSuccess: refresh,
  });
  const revoke = useMutation({
    mutationFn: async (invitationId: string) =>
      (await callApi(revokeInvitation, { params: { brandId, invitationId } })).data,
    onSuccess: refresh,
  });
  return (
    <Card className="space-y-3">
      <h2 className="font-semibold">Invitations</h2>
      {invitations.isPending && <div className="h-12 animate-pulse rounded bg-slate-100" />}
      {invitations.error && (
        <ErrorNotice message={invitations.error.message} onRetry={() => invitations.refetch()} />
      )}
      {invitations.data?.items.length === 0 && <p className="text-sm text-slate-600">No invitations yet.</p>}
      {(resend.error || revoke.error) && (
        <ErrorNotice message={(resend.error ?? revoke.error)?.message ?? ""} />
      )}
      {resend.data && (
        <LinkNotice link={resend.data.link}>
          <p>
            {resend.data.emailed ? "We emailed a new link to " : "New link for "}
            {resend.data.email}; the earlier one no longer works:
          </p>
        </LinkNotice>
      )}
      <ul className="divide-y divide-slate-100">
        {invitations.data?.items.map((item) => (
          <li
            key={item.invitationId}
            className="flex flex-col gap-2 py-3 text-sm sm:flex-row sm:items-center sm:gap-3"
          >
            <div className="min-w-0 flex-1">
              <p className="break-all font-medium">{item.email}</p>
              <p className="text-slate-600">
                {item.role} · {item.status}
                {item.status === "pending" && ` · expires ${new Date(item.expiresAt).toLocaleDateString()}`}
              </p>
            </div>
            <div className="flex gap-2">
              {(item.status === "pending" || item.status === "expired") && (
                <Button variant="secondary" onClick={() => resend.mutate(item.invitationId)}>
                  Resend
                </Button>
              )}
              {item.status === "pending" && (
                <Button variant="danger" onClick={() => revoke.mutate(item.invitationId)}>
                  Revoke
                </Button>
              )}
            </div>
          </li>
        ))}
      </ul>
    </Card>
  );
}

/** /brands/{brandId}/members: the team, and for owners, roles and invitations. */
export function BrandMembers({ brandId }: { brandId: string }) {
  const queryClient = useQueryClient();
  const session = useSession();
  const brand = useQuery(brandQueries.detail(brandId));
  const members = useQuery(brandQueries.members(brandId));
  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.brands.members(brandId) });
  const change = useMutation({
    mutationFn: async ({ userId, role }: { userId: string; role: BrandRole }) =>
      (await callApi(updateMember, { params: { brandId, userId }, body: { role } })).data,
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: async (userId: string) => (await callApi(removeMember, { params: { brandId, userId } })).data,
    onSuccess: refresh,
  });

  if (brand.isPending || members.isPending) {
    return <div aria-busy className="h-40 animate-pulse rounded-xl border border-slate-200 bg-white" />;
  }
  const error = brand.error ?? members.error;
  if (error || !brand.data || !members.data) {
    return (
      <ErrorNotice
        message={
          error instanceof ApiClientError && error.status === 404
            ? "This brand does not exist, or it is not one of yours."
            : (error?.message ?? "The members could not be loaded.")
        }
      />
    );
  }
  const manage = can(brand.data.role, "member.manage");
  // A brand keeps at least one owner: the only owner's role cannot change and they cannot be removed (409
  // last_owner), so neither is offered; the row says why instead.
  const owners = members.data.items.filter((member) => member.role === "owner").length;
  const actionError = change.error ?? remove.error;

  return (
    <div className="space-y-6">
      <div>
        <Link href={`/brands/${brandId}`} className="text-sm text-slate-500 hover:text-slate-800">
          ← {brand.data.name}
        </Link>
        <h1 className="mt-2 text-2xl font-semibold tracking-tight">Members</h1>
        <p className="text-sm text-slate-600">
          Viewers read; editors also draft, make videos and submit for approval; owners also manage the brand,
          its members, and approve. Your role: {brand.data.role}.
        </p>
      </div>
      <Card className="space-y-3">
        {actionError && <ErrorNotice message={actionError.message} />}
        <ul aria-label="Members" className="divide-y divide-slate-100">
          {members.data.items.map((member) => (
            <li
              key={member.userId}
              className="flex flex-col gap-2 py-3 text-sm sm:flex-row sm:items-center sm:gap-3"
            >
              <div className="min-w-0 flex-1">
                <p className="break-all font-medium">
                  {member.name ?? member.email}
                  {member.email === session.data?.user?.email && (
                    <span className="ml-2 rounded bg-brand-50 px-1.5 py-0.5 text-xs text-brand-700">you</span>
                  )}
                </p>
                {member.name && <p className="break-all text-slate-600">{member.email}</p>}
              </div>
              {manage && member.role === "owner" && owners === 1 ? (
                <div className="space-y-1 sm:max-w-xs" data-testid="sole-owner-note">
                  <span className="rounded bg-slate-100 px-2 py-0.5 text-slate-700">owner</span>
                  <p className="text-xs text-slate-600">
                    The brand's only owner: make another member an owner first, then this role can change or
                    be removed.
                  </p>
                </div>
              ) : manage ? (
                <div className="flex items-center gap-2">
                  <select
                    aria-label={`Role of ${member.email}`}
                    value={member.role}
                    disabled={change.isPending}
                    onChange={(event) =>
                      change.mutate({ userId: member.userId, role: event.target.value as BrandRole })
                    }
                    className={SELECT}
                  >
                    {BRAND_ROLES.map((role) => (
                      <option key={role} value={role}>
                        {role}
                      </option>
                    ))}
                  </select>
                  <Button
                    variant="danger"
                    disabled={remove.isPending}
                    onClick={() => {
                      if (window.confirm(`Remove ${member.email} from ${brand.data.name}?`))
                        remove.mutate(member.userId);
                    }}
                  >
                    Remove
                  </Button>
                </div>
              ) : (
                <span className="self-start rounded bg-slate-100 px-2 py-0.5 text-slate-700 sm:self-auto">
                  {member.role}
                </span>
              )}
            </li>
          ))}
        </ul>
      </Card>
      {manage && (
        <>
          <InviteForm brandId={brandId} />
          <Invitations brandId={brandId} />
        </>
      )}
    </div>
  );
}
