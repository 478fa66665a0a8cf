import "server-only";
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { getAuthSecret } from "@/lib/auth/secret";
import { getEnv } from "@/lib/config";

/**
 * Secrets at rest (channel credentials: bot tokens, OAuth tokens), encrypted with AES-256-GCM.
 *
 * Stored form: `v1.<k|a>.<iv>.<tag>.<ciphertext>` (base64url parts). `v1` names the format; `k` says the key
 * came from ENCRYPTION_KEY and `a` from AUTH_SECRET, both through HKDF-SHA256, so a later key rotation can
 * tell which key a value needs. `context` (for example the connection's id) is bound as additional
 * authenticated data: a ciphertext copied onto another row does not decrypt there.
 */

const VERSION = "v1";
const IV_BYTES = 12;
const HKDF_INFO = "brand-studio channel credentials v1";
const HKDF_SALT = "brand-studio/encrypt-secret";

export class SecretDecryptionError extends Error {
  constructor(reason: string) {
    super(`The stored secret cannot be decrypted: ${reason}`);
    this.name = "SecretDecryptionError";
  }
}

type KeySource = "k" | "a";

function keyFor(source: KeySource): Buffer {
  const material = source === "k" ? getEnv().ENCRYPTION_KEY : getAuthSecret();
  if (!material) throw new SecretDecryptionError("ENCRYPTION_KEY is not set.");
  return Buffer.from(hkdfSync("sha256", material, HKDF_SALT, HKDF_INFO, 32));
}

const currentSource = (): KeySource => (getEnv().ENCRYPTION_KEY ? "k" : "a");

export function encryptSecret(plaintext: string, context: string): string {
  const source = currentSource();
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", keyFor(source), iv);
  cipher.setAAD(Buffer.from(context, "utf8"));
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [
    VERSION,
    source,
    iv.toString("base64url"),
    tag.toString("base64url"),
    ciphertext.toString("base64url"),
  ].join(".");
}

export function decryptSecret(stored: string, context: string): string {
  const parts = stored.split(".");
  if (parts.length !== 5 || parts[0] !== VERSION) throw new SecretDecryptionError("unknown format.");
  const [, source, iv, tag, ciphertext] = parts;
  if (source !== "k" && source !== "a") throw new SecretDecryptionError("unknown key source.");
  try {
    const decipher = createDecipheriv("aes-256-gcm", keyFor(source), Buffer.from(iv, "base64url"));
    decipher.setAAD(Buffer.from(context, "utf8"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString(
      "utf8",
    );
  } catch (error) {
    if (error instanceof SecretDecryptionError) throw error;
    throw new SecretDecryptionError("the key changed or the value was altered.");
  }
}
