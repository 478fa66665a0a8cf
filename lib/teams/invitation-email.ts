import "server-only";
import nodemailer from "nodemailer";
import { getEnv } from "@/lib/config";
import { log } from "@/lib/log";

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export type InvitationEmail = {
  to: string;
  brandName: string;
  inviter: string;
  role: string;
  link: string;
  expiresAt: Date;
};

/** The invitation as plain text and HTML: the brand, who invited, the role, the link and when it expires. */
export function invitationMessage({ brandName, inviter, role, link, expiresAt }: InvitationEmail) {
  const expires = `${expiresAt.toISOString().replace("T", " ").slice(0, 16)} UTC`;
  const subject = `${inviter} invited you to ${brandName} on Brand Studio`;
  const text = [
    `${inviter} invited you to join the brand "${brandName}" on Brand Studio as ${role}.`,
    "",
    `Accept the invitation: ${link}`,
    "",
    `The link works once and expires on ${expires}.`,
  ].join("\n");
  const html = `<p>${escapeHtml(inviter)} invited you to join the brand <strong>${escapeHtml(brandName)}</strong> on Brand Studio as ${escapeHtml(role)}.</p>
<p><a href="${escapeHtml(link)}">Accept the invitation</a></p>
<p>The link works once and expires on ${escapeHtml(expires)}.</p>`;
  return { subject, text, html };
}

/**
 * Sends the invitation through SMTP_URL; false when no SMTP server is configured (the owner copies the
 * link). A failed send is logged without the link (it is a credential) and reported as not emailed.
 */
export async function sendInvitationEmail(email: InvitationEmail): Promise<boolean> {
  const env = getEnv();
  if (!env.SMTP_URL) return false;
  const from =
    env.SMTP_FROM ?? `Brand Studio <no-reply@${new URL(env.APP_URL ?? "http://localhost").hostname}>`;
  try {
    const transport = nodemailer.createTransport(env.SMTP_URL);
    await transport.sendMail({ from, to: email.to, ...invitationMessage(email) });
    return true;
  } catch (error) {
    log.warn("invitation_email_failed", { error: error instanceof Error ? error.message : String(error) });
    return false;
  }
}
