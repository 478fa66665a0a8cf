import { createHash, randomBytes } from "node:crypto";

export const API_KEY_PREFIX = "bsk_";

/** A recognisable prefix plus 32 random base64url characters (192 bits). */
export function generateApiKey() {
  const key = `${API_KEY_PREFIX}${randomBytes(24).toString("base64url")}`;
  return { key, hashedKey: hashApiKey(key), hint: `${API_KEY_PREFIX}…${key.slice(-4)}` };
}

export function hashApiKey(key: string) {
  return createHash("sha256").update(key).digest("hex");
}

export function looksLikeApiKey(value: string) {
  return value.startsWith(API_KEY_PREFIX);
}
