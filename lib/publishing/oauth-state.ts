import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * The `state` of an OAuth connection: who started it (user), for which brand and platform, and until when it
 * may come back. `base64url(json).base64url(hmac)`, the HMAC-SHA256 key derived by HKDF from AUTH_SECRET, so
 * a state is accepted only by servers sharing the secret and cannot be altered or forged. Nothing is stored
 * between start and callback. (LinkedIn's web flow, a confidential client, takes no PKCE.)
 * No `server-only`: tests sign states (an expired one) with the server's secret through this module.
 */

export const OAUTH_STATE_TTL_SECONDS = 600;

export type OAuthStatePayload = {
  /** user id */
  u: string;
  /** brand id */
  b: string;
  /** channel */
  c: string;
  /** nonce */
  n: string;
  /** expires, epoch seconds */
  e: number;
};

export type OAuthStateFailure = "malformed" | "signature" | "expired";

const keyFrom = (secret: string, info: string) =>
  Buffer.from(hkdfSync("sha256", secret, "brand-studio/oauth-state", info, 32));

const mac = (secret: string, payload: string) =>
  createHmac("sha256", keyFrom(secret, "oauth state v1")).update(payload).digest();

export function signOAuthState(
  secret: string,
  fields: { userId: string; brandId: string; channel: string },
  nowSeconds = Math.floor(Date.now() / 1000),
  ttlSeconds = OAUTH_STATE_TTL_SECONDS,
): string {
  const payload: OAuthStatePayload = {
    u: fields.userId,
    b: fields.brandId,
    c: fields.channel,
    n: randomBytes(16).toString("base64url"),
    e: nowSeconds + ttlSeconds,
  };
  const encoded = Buffer.from(JSON.stringify(payload)).toString("base64url");
  return `${encoded}.${mac(secret, encoded).toString("base64url")}`;
}

export function verifyOAuthState(
  secret: string,
  state: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): { ok: true; payload: OAuthStatePayload } | { ok: false; reason: OAuthStateFailure } {
  const parts = state.split(".");
  if (parts.length !== 2 || !parts[0] || !parts[1]) return { ok: false, reason: "malformed" };
  const expected = mac(secret, parts[0]);
  const given = Buffer.from(parts[1], "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { ok: false, reason: "signature" };
  let payload: OAuthStatePayload;
  try {
    payload = JSON.parse(Buffer.from(parts[0], "base64url").toString("utf8")) as OAuthStatePayload;
  } catch {
    return { ok: false, reason: "malformed" };
  }
  if (typeof payload.e !== "number" || !payload.u || !payload.b || !payload.c)
    return { ok: false, reason: "malformed" };
  if (payload.e < nowSeconds) return { ok: false, reason: "expired" };
  return { ok: true, payload };
}
