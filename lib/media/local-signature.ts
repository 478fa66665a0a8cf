import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import { getAuthSecret } from "@/lib/auth/secret";

/**
 * Signed local media URLs: `/media/<key>?exp=<unix seconds>&sig=<HMAC-SHA256 over key and exp>`. The key
 * is derived from AUTH_SECRET (HKDF) with a label of its own, so it signs nothing else, and every
 * process that shares AUTH_SECRET checks every other's links.
 */
let derived: { secret: string; key: Buffer } | undefined;

/** Derived once per secret (HKDF cost more than the three HMACs of a status poll's links together). */
function signingKey() {
  const secret = getAuthSecret();
  if (derived?.secret !== secret)
    derived = { secret, key: Buffer.from(hkdfSync("sha256", secret, "", "brand-studio media url v1", 32)) };
  return derived.key;
}

function signature(key: string, expiresAt: number) {
  return createHmac("sha256", signingKey()).update(`${key}\n${expiresAt}`).digest("base64url");
}

export function signLocalMediaUrl(key: string, expiresAt: number) {
  return `/media/${key}?exp=${expiresAt}&sig=${signature(key, expiresAt)}`;
}

export type MediaSignatureCheck = { ok: true; expiresAt: number } | { ok: false; reason: string };

/** Checks `exp` and `sig` of a request for `key`: unsigned, tampered and expired links all fail. */
export function verifyLocalMediaSignature(
  key: string,
  exp: string | null,
  sig: string | null,
  nowMs = Date.now(),
): MediaSignatureCheck {
  if (!exp || !sig) return { ok: false, reason: "unsigned" };
  if (!/^\d{1,12}$/.test(exp)) return { ok: false, reason: "malformed" };
  const expiresAt = Number(exp);
  const expected = Buffer.from(signature(key, expiresAt));
  const given = Buffer.from(sig);
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { ok: false, reason: "tampered" };
  if (expiresAt * 1000 <= nowMs) return { ok: false, reason: "expired" };
  return { ok: true, expiresAt };
}
