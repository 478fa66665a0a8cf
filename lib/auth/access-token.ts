import { hkdfSync } from "node:crypto";
import { errors, jwtVerify, SignJWT } from "jose";
import { getAuthSecret } from "./secret";

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
const ISSUER = "brand-studio";
const AUDIENCE = "brand-studio-api";

// A key of its own, derived from AUTH_SECRET, so access tokens and next-auth's session cookie never share one.
// Derived once per secret (HKDF on every request showed in the poll profile).
let derived: { secret: string; key: Uint8Array } | undefined;
function signingKey() {
  const secret = getAuthSecret();
  if (derived?.secret !== secret) {
    derived = {
      secret,
      key: new Uint8Array(hkdfSync("sha256", secret, "", "brand-studio access token v1", 32)),
    };
  }
  return derived.key;
}

export async function mintAccessToken(userId: string, now = Date.now()) {
  const issuedAt = Math.floor(now / 1000);
  const expiresAt = issuedAt + ACCESS_TOKEN_TTL_SECONDS;
  const token = await new SignJWT({})
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(userId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(issuedAt)
    .setExpirationTime(expiresAt)
    .sign(signingKey());
  return { token, expiresAt: expiresAt * 1000 };
}

/** Returns the user id, or null for a token that is malformed, tampered, expired or not ours. */
export async function verifyAccessToken(token: string): Promise<string | null> {
  try {
    const { payload } = await jwtVerify(token, signingKey(), {
      algorithms: ["HS256"],
      issuer: ISSUER,
      audience: AUDIENCE,
    });
    return typeof payload.sub === "string" ? payload.sub : null;
  } catch (error) {
    if (error instanceof errors.JOSEError || error instanceof TypeError) return null;
    throw error;
  }
}
