import "server-only";
import type { Principal } from "@/lib/auth/authenticate";
import { requireBrandPermission } from "@/lib/brands/brand-access";
import { ApiError } from "@/lib/errors/api-error";
import { decryptSecret, encryptSecret, SecretDecryptionError } from "@/lib/security/encrypt-secret";
import { type ConnectedAccount, saveConnections } from "./oauth-connect";

/**
 * A LinkedIn connect that found company pages: the accounts wait, encrypted (bound to the user) in an
 * HttpOnly cookie for 10 minutes, while the brand's connect page lists them and the owner picks which to add.
 * Nothing is stored in the database until then.
 */
export const CHOICE_COOKIE = "bs_linkedin_choice";
export const CHOICE_TTL_SECONDS = 600;

type Sealed = { u: string; b: string; exp: number; accounts: ConnectedAccount[] };

const context = (userId: string) => `linkedin-choice:${userId}`;

export function sealChoice(principal: Principal, brandId: string, accounts: ConnectedAccount[]) {
  const sealed: Sealed = {
    u: principal.userId,
    b: brandId,
    exp: Date.now() + CHOICE_TTL_SECONDS * 1000,
    accounts,
  };
  return encryptSecret(JSON.stringify(sealed), context(principal.userId));
}

const expired = () =>
  new ApiError(
    "oauth_state_invalid",
    "This LinkedIn connection is older than 10 minutes or was already finished. Start connecting again from the brand's settings.",
    { details: { reason: "expired" } },
  );

function openChoice(principal: Principal, cookie: string | undefined): Sealed {
  if (!cookie) throw expired();
  let sealed: Sealed;
  try {
    sealed = JSON.parse(decryptSecret(cookie, context(principal.userId))) as Sealed;
  } catch (error) {
    if (error instanceof SecretDecryptionError || error instanceof SyntaxError) throw expired();
    throw error;
  }
  if (sealed.u !== principal.userId || sealed.exp < Date.now()) throw expired();
  return sealed;
}

const isPage = (account: ConnectedAccount) => account.externalId.startsWith("urn:li:organization:");

/** GET …/linkedin/choice: the member and the pages found (never a token). */
export async function readChoice(principal: Principal, cookie: string | undefined) {
  const { b: brandId, accounts } = openChoice(principal, cookie);
  const { brand } = await requireBrandPermission({ principal, brandId, permission: "channel.manage" });
  return {
    brandId,
    brandName: brand.name,
    accounts: accounts.map((account) => ({
      externalId: account.externalId,
      accountName: account.accountName,
      accountHandle: account.accountHandle,
      kind: isPage(account) ? ("page" as const) : ("member" as const),
    })),
  };
}

/** POST …/linkedin/choice `{ externalIds }`: connects the accounts chosen (at least one), nothing else. */
export async function finishChoice(principal: Principal, cookie: string | undefined, externalIds: string[]) {
  const { b: brandId, accounts } = openChoice(principal, cookie);
  await requireBrandPermission({ principal, brandId, permission: "channel.manage" });
  const chosen = accounts.filter((account) => externalIds.includes(account.externalId));
  if (chosen.length === 0) {
    const message = "Choose at least one of the accounts found.";
    throw new ApiError("invalid_request", message, { details: [{ path: "externalIds", message }] });
  }
  const channelIds = await saveConnections({ principal, brandId, channel: "linkedin", accounts: chosen });
  return { brandId, channelIds };
}

/** The cookie's Set-Cookie value: HttpOnly, only for the OAuth routes, Secure on an https origin. */
export function choiceCookie(value: string, origin: string, maxAge = CHOICE_TTL_SECONDS) {
  const secure = origin.startsWith("https:") ? "; Secure" : "";
  return `${CHOICE_COOKIE}=${value}; Path=/api/channels/oauth; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure}`;
}
