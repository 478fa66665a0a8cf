import "server-only";
import path from "node:path";

/** Runtime configuration, read once per call so tests can start servers with their own environment. */
export const config = {
  get dataDir() {
    return path.resolve(/*turbopackIgnore: true*/ process.env.DATA_DIR || ".data");
  },
  get databaseUrl() {
    return process.env.DATABASE_URL || undefined;
  },
  get allowSignup() {
    return process.env.ALLOW_SIGNUP !== "false";
  },
  get worker(): "inline" | "off" {
    return process.env.WORKER === "off" ? "off" : "inline";
  },
  get videoProvider() {
    return process.env.VIDEO_PROVIDER || "local";
  },
  get videoMonthlyQuota() {
    const value = Number(process.env.VIDEO_MONTHLY_QUOTA ?? 30);
    return Number.isInteger(value) && value >= 0 ? value : 30;
  },
  get isProduction() {
    return process.env.NODE_ENV === "production";
  },
};
