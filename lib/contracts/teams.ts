import { z } from "zod";
import { brandParams } from "./brands";
import { idOf, isoDateTime } from "./common";
import { BRAND_ROLES } from "./enums";
import { defineOperation } from "./operation";
import { ROUTES } from "./routes";

/** Invitations expire this long after they are sent (or re-sent). */
export const INVITATION_TTL_DAYS = 7;

export const INVITATION_STATUSES = ["pending", "accepted", "expired", "revoked"] as const;

const role = z
  .enum(BRAND_ROLES, { error: `The role must be one of ${BRAND_ROLES.join(", ")}.` })
  .meta({ example: "editor" })
  .describe("viewer reads; editor also drafts, makes videos and submits; owner also manages and approves.");

export const memberParams = z.object({ brandId: idOf("brd"), userId: idOf("usr") });
export const invitationParams = z.object({ brandId: idOf("brd"), invitationId: idOf("inv") });
export const invitationTokenParams = z.object({
  token: z
    .string()
    .regex(/^[A-Za-z0-9_-]{20,100}$/, "This is not an invitation link.")
    .meta({ example: "hT9x2Qv7mK0pLr4NsW8yBc3ZfJ6aDg1E5uIoX_kPq-Y" }),
});

export const memberResponse = z
  .object({
    userId: idOf("usr"),
    email: z.string().meta({ example: "maria@example.com" }),
    name: z.string().nullable().meta({ example: "Maria" }),
    role,
    joinedAt: isoDateTime.meta({ example: "2025-05-01T09:30:00.000Z" }),
  })
  .meta({ id: "Member" });

export const memberListResponse = z
  .object({ items: z.array(memberResponse).describe("The brand's members, owners first, then by email.") })
  .meta({ id: "MemberList" });

export const updateMemberBody = z.strictObject({ role }, { error: "Send { role }." });

export const invitationResponse = z
  .object({
    invitationId: idOf("inv"),
    brandId: idOf("brd"),
    email: z.string().meta({ example: "sam@example.com" }),
    role,
    status: z
      .enum(INVITATION_STATUSES)
      .meta({ example: "pending" })
      .describe("pending until accepted, revoked, or past expiresAt."),
    invitedBy: z.string().nullable().meta({ example: "maria@example.com" }).describe("Who sent it (email)."),
    createdAt: isoDateTime.meta({ example: "2025-05-01T09:30:00.000Z" }),
    expiresAt: isoDateTime.meta({ example: "2025-05-08T09:30:00.000Z" }),
  })
  .meta({ id: "Invitation" });

export const invitationLinkResponse = invitationResponse
  .extend({
    link: z
      .string()
      .meta({ example: "https://studio.example.com/invite/hT9x2Qv7mK0pLr4NsW8yBc3ZfJ6aDg1E5uIoX_kPq-Y" })
      .describe(
        "The single-use link, on APP_URL or else on the host the request was sent to. It is shown only in this response; only its hash is stored.",
      ),
    emailed: z.boolean().describe("True when the link was sent by email (SMTP_URL is set)."),
  })
  .meta({ id: "InvitationWithLink" });

export const invitationListResponse = z
  .object({ items: z.array(invitationResponse).describe("Pending invitations first, newest first.") })
  .meta({ id: "InvitationList" });

export const createInvitationBody = z.strictObject(
  {
    email: z
      .email("Enter a valid email address.")
      .max(254, "Use at most 254 characters for the email.")
      .meta({ example: "sam@example.com" }),
    role,
  },
  { error: "Send { email, role }." },
);

export const invitationPreviewResponse = z
  .object({
    brandId: idOf("brd"),
    brandName: z.string().meta({ example: "Northwind Coffee" }),
    email: z.string().meta({ example: "sam@example.com" }),
    role,
    invitedBy: z.string().nullable().meta({ example: "Maria" }),
    expiresAt: isoDateTime.meta({ example: "2025-05-08T09:30:00.000Z" }),
    yourRole: role
      .nullable()
      .describe(
        "With a bearer token of someone already in the brand: their role (they cannot accept; the invitation stays open). Otherwise null.",
      ),
  })
  .meta({ id: "InvitationPreview" });

export const acceptInvitationResponse = z
  .object({ brandId: idOf("brd"), role })
  .meta({ id: "AcceptedInvitation" });

export const listMembers = defineOperation({
  ...ROUTES.listMembers,
  title: "List members",
  auth: "bearer",
  permission: "brand.read",
  summary: "Lists the brand's members and their roles.",
  pathParams: brandParams,
  responses: { 200: { description: "The members.", schema: memberListResponse } },
});

export const updateMember = defineOperation({
  ...ROUTES.updateMember,
  title: "Change member role",
  auth: "bearer",
  permission: "member.manage",
  summary: "Changes a member's role. A brand always keeps at least one owner.",
  pathParams: memberParams,
  body: updateMemberBody,
  responses: { 200: { description: "The member with the new role.", schema: memberResponse } },
  errors: ["invalid_request", "last_owner", "payload_too_large"],
});

export const removeMember = defineOperation({
  ...ROUTES.removeMember,
  title: "Remove member",
  auth: "bearer",
  permission: "member.manage",
  summary:
    "Removes a member from the brand; their next request on any server answers 404 for it. Their personal LinkedIn and Instagram connections to the brand are disconnected with them.",
  pathParams: memberParams,
  responses: { 204: { description: "The member is removed." } },
  errors: ["last_owner"],
});

export const listInvitations = defineOperation({
  ...ROUTES.listInvitations,
  title: "List invitations",
  auth: "bearer",
  permission: "member.manage",
  summary: "Lists the brand's invitations (never their links).",
  pathParams: brandParams,
  responses: { 200: { description: "The invitations.", schema: invitationListResponse } },
});

export const createInvitation = defineOperation({
  ...ROUTES.createInvitation,
  title: "Invite member",
  auth: "bearer",
  permission: "member.manage",
  summary: `Invites someone by email with a role: a single-use link that expires after ${INVITATION_TTL_DAYS} days, emailed when SMTP_URL is set. An email that already has an open invitation to the brand (any case) gets that one re-issued, never a second. Limited per owner and per brand an hour (RATE_LIMIT_INVITE_PER_HOUR, RATE_LIMIT_INVITE_PER_BRAND_PER_HOUR), re-sends included.`,
  pathParams: brandParams,
  body: createInvitationBody,
  responses: {
    200: {
      description:
        "The email already had an open (pending or expired) invitation: it was re-issued with a new link, expiry and this role; the old link stops working.",
      schema: invitationLinkResponse,
    },
    201: { description: "The invitation and its link.", schema: invitationLinkResponse },
  },
  errors: ["invalid_request", "rate_limited", "payload_too_large"],
});

export const resendInvitation = defineOperation({
  ...ROUTES.resendInvitation,
  title: "Resend invitation",
  auth: "bearer",
  permission: "member.manage",
  summary:
    "Issues a new link for a pending or expired invitation (the old link stops working) and sends it again. Counts against the same hourly limits as Invite member.",
  pathParams: invitationParams,
  body: z.object({}).meta({ id: "ResendInvitationRequest" }),
  responses: { 200: { description: "The invitation and its new link.", schema: invitationLinkResponse } },
  errors: ["invitation_unavailable", "rate_limited", "payload_too_large"],
});

export const revokeInvitation = defineOperation({
  ...ROUTES.revokeInvitation,
  title: "Revoke invitation",
  auth: "bearer",
  permission: "member.manage",
  summary:
    "Revokes an invitation; its link then says it was revoked. Revoking twice is a no-op; an invitation already accepted answers 410 invitation_unavailable (reason accepted): remove the member instead.",
  pathParams: invitationParams,
  responses: { 200: { description: "The revoked invitation.", schema: invitationResponse } },
  errors: ["invitation_unavailable"],
});

export const getInvitation = defineOperation({
  ...ROUTES.getInvitation,
  title: "Open invitation",
  auth: "none",
  summary:
    "What an invitation link offers: the brand, the role, who invited and until when. No token needed; with one, `yourRole` tells a member they are in the brand already.",
  pathParams: invitationTokenParams,
  responses: { 200: { description: "The invitation.", schema: invitationPreviewResponse } },
  errors: ["invitation_unavailable", "service_unavailable"],
});

export const acceptInvitation = defineOperation({
  ...ROUTES.acceptInvitation,
  title: "Accept invitation",
  auth: "bearer",
  summary:
    "Joins the brand with the invitation's role as the signed-in user; the link then stops working. A member already gets 409 already_member and the invitation stays open.",
  pathParams: invitationTokenParams,
  body: z.object({}).meta({ id: "AcceptInvitationRequest" }),
  responses: { 200: { description: "The membership.", schema: acceptInvitationResponse } },
  errors: ["invitation_unavailable", "already_member", "payload_too_large", "service_unavailable"],
});

export type MemberResponse = z.infer<typeof memberResponse>;
export type InvitationResponse = z.infer<typeof invitationResponse>;
export type InvitationLinkResponse = z.infer<typeof invitationLinkResponse>;
