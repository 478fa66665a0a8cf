import { afterEach, describe, expect, it } from "vitest";
import { decryptSecret, encryptSecret, SecretDecryptionError } from "@/lib/security/encrypt-secret";

const saved = { ENCRYPTION_KEY: process.env.ENCRYPTION_KEY, AUTH_SECRET: process.env.AUTH_SECRET };
afterEach(() => {
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});

describe("encryptSecret (AES-256-GCM, versioned)", () => {
  it("round-trips, never contains the plaintext, and differs every time (random IV)", () => {
    process.env.AUTH_SECRET = "auth-secret-for-tests-0123456789abcdef";
    delete process.env.ENCRYPTION_KEY;
    const token = "123456:AAE-very-secret-bot-token";
    const a = encryptSecret(token, "chn_1");
    const b = encryptSecret(token, "chn_1");
    expect(a).not.toBe(b);
    expect(a).not.toContain("very-secret");
    expect(a.startsWith("v1.a.")).toBe(true);
    expect(decryptSecret(a, "chn_1")).toBe(token);
  });

  it("binds the context: a ciphertext moved to another row does not decrypt", () => {
    process.env.AUTH_SECRET = "auth-secret-for-tests-0123456789abcdef";
    const stored = encryptSecret("token", "chn_1");
    expect(() => decryptSecret(stored, "chn_2")).toThrow(SecretDecryptionError);
  });

  it("detects tampering and a changed key", () => {
    process.env.AUTH_SECRET = "auth-secret-for-tests-0123456789abcdef";
    const stored = encryptSecret("token", "ctx");
    const parts = stored.split(".");
    const body = Buffer.from(parts[4], "base64url");
    body[0] ^= 1;
    parts[4] = body.toString("base64url");
    expect(() => decryptSecret(parts.join("."), "ctx")).toThrow(SecretDecryptionError);
    process.env.AUTH_SECRET = "another-auth-secret-0123456789abcdefgh";
    expect(() => decryptSecret(stored, "ctx")).toThrow(SecretDecryptionError);
    expect(() => decryptSecret("plain-token", "ctx")).toThrow(SecretDecryptionError);
  });

  it("uses ENCRYPTION_KEY when set, and still reads values made with the AUTH_SECRET key", () => {
    process.env.AUTH_SECRET = "auth-secret-for-tests-0123456789abcdef";
    delete process.env.ENCRYPTION_KEY;
    const old = encryptSecret("old-token", "ctx");
    process.env.ENCRYPTION_KEY = "a-dedicated-encryption-key-0123456789";
    const fresh = encryptSecret("new-token", "ctx");
    expect(fresh.startsWith("v1.k.")).toBe(true);
    expect(decryptSecret(fresh, "ctx")).toBe("new-token");
    expect(decryptSecret(old, "ctx")).toBe("old-token");
  });
});
