import "server-only";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { config, getEnv } from "@/lib/config";
import { log } from "@/lib/log";

const globalForSecret = globalThis as unknown as { brandStudioAuthSecret?: string };

/**
 * AUTH_SECRET, or one generated into DATA_DIR for a single-process development setup. Several processes
 * on one PostgreSQL must share a secret, so production with DATABASE_URL requires it to be set.
 */
export function getAuthSecret(): string {
  const fromEnv = getEnv().AUTH_SECRET;
  if (fromEnv) return fromEnv;
  if (globalForSecret.brandStudioAuthSecret) return globalForSecret.brandStudioAuthSecret;
  if (config.isProduction && config.databaseUrl) {
    throw new Error(
      "AUTH_SECRET must be set when DATABASE_URL is used in production (every process shares it).",
    );
  }
  const file = path.join(config.dataDir, "auth-secret");
  fs.mkdirSync(config.dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, randomBytes(32).toString("base64url"), { flag: "wx", mode: 0o600 });
    log.warn("auth_secret_generated", {
      file,
      hint: "Set AUTH_SECRET to keep sessions valid across machines.",
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  globalForSecret.brandStudioAuthSecret = fs.readFileSync(file, "utf8").trim();
  return globalForSecret.brandStudioAuthSecret;
}
