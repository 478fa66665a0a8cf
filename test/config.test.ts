import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, ENV_KEYS, parseEnv } from "@/lib/config";

const ROOT = path.resolve(__dirname, "..");
const problemsOf = (source: Record<string, string | undefined>) => {
  try {
    parseEnv(source);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error("parseEnv accepted the environment");
};

describe("parseEnv", () => {
  it("gives every default on an empty environment (development)", () => {
    const env = parseEnv({});
    expect(env).toMatchObject({
      NODE_ENV: "development",
      PORT: 3000,
      DATA_DIR: path.resolve(".data"),
      ALLOW_SIGNUP: true,
      SEED_DEMO: true,
      VIDEO_PROVIDER: "local",
      WORKER: "inline",
      VIDEO_MONTHLY_QUOTA: 30,
      MEDIA_STORE: "local",
      MEDIA_URL_TTL_SECONDS: 604_800,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: true,
    });
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.AUTH_SECRET).toBeUndefined();
  });

  it("turns the demo seed and private webhook targets off by default in production, and SEED_DEMO=true forces the seed", () => {
    const secret = "x".repeat(32);
    expect(parseEnv({ NODE_ENV: "production", AUTH_SECRET: secret })).toMatchObject({
      SEED_DEMO: false,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: false,
    });
    expect(parseEnv({ NODE_ENV: "production", AUTH_SECRET: secret, SEED_DEMO: "true" }).SEED_DEMO).toBe(true);
    expect(parseEnv({ SEED_DEMO: "false" }).SEED_DEMO).toBe(false);
  });

  it("parses numbers, flags and URLs, and treats an empty value as unset", () => {
    const env = parseEnv({
      PORT: "8080",
      VIDEO_MONTHLY_QUOTA: "0",
      ALLOW_SIGNUP: "0",
      DATABASE_URL: "postgresql://app@db:5432/brandstudio",
      APP_URL: "https://studio.example.com/",
      OPENAI_MODEL: "",
    });
    expect(env).toMatchObject({
      PORT: 8080,
      VIDEO_MONTHLY_QUOTA: 0,
      ALLOW_SIGNUP: false,
      DATABASE_URL: "postgresql://app@db:5432/brandstudio",
      APP_URL: "https://studio.example.com",
      OPENAI_MODEL: "gpt-4o-mini",
    });
    expect(parseEnv({ NEXTAUTH_URL: "http://localhost:3000" }).APP_URL).toBe("http://localhost:3000");
  });

  it("names every bad variable at once, with what it got and what it expects", () => {
    const problems = problemsOf({
      VIDEO_MONTHLY_QUOTA: "abc",
      PORT: "70000",
      WORKER: "sometimes",
      DATABASE_URL: "mysql://db/x",
      ALLOW_SIGNUP: "yes",
    });
    expect(problems).toHaveLength(5);
    expect(problems).toContain('VIDEO_MONTHLY_QUOTA: expected a whole number from 0 to 100000; got "abc"');
    expect(problems.find((p) => p.startsWith("PORT:"))).toMatch(/from 1 to 65535; got "70000"/);
    expect(problems.find((p) => p.startsWith("WORKER:"))).toMatch(/inline, off; got "sometimes"/);
    expect(problems.find((p) => p.startsWith("DATABASE_URL:"))).toMatch(/postgres/);
    expect(problems.find((p) => p.startsWith("ALLOW_SIGNUP:"))).toMatch(/"true" or "false"; got "yes"/);
  });

  it("requires a 32-byte AUTH_SECRET in production, S3 settings with MEDIA_STORE=s3, and pairs of OAuth settings", () => {
    expect(problemsOf({ NODE_ENV: "production" })).toEqual([
      "AUTH_SECRET: required in production (at least 32 bytes); got unset",
    ]);
    const problems = problemsOf({
      NODE_ENV: "production",
      AUTH_SECRET: "too-short-secret",
      MEDIA_STORE: "s3",
      S3_SECRET_ACCESS_KEY: "an-s3-secret-value",
      GITHUB_ID: "gh-app",
      VIDEO_PROVIDER: "heygen",
    });
    expect(problems.map((p) => p.split(":")[0]).sort()).toEqual(
      ["AUTH_SECRET", "GITHUB_SECRET", "HEYGEN_API_KEY", "S3_ACCESS_KEY_ID", "S3_BUCKET"].sort(),
    );
    expect(problems).toContain(
      "AUTH_SECRET: expected at least 32 bytes in production; got a hidden value of 16 bytes",
    );
    // Secrets are described by their length, never shown.
    expect(problems.join("\n")).not.toContain("too-short-secret");
    expect(problems.join("\n")).not.toContain("an-s3-secret-value");
    expect(parseEnv({ AUTH_SECRET: "short" }).AUTH_SECRET).toBe("short");
  });

  it("never shows a secret's value, even when it is malformed", () => {
    const message = new ConfigError(problemsOf({ NODE_ENV: "production", AUTH_SECRET: "hunter2" })).message;
    expect(message).toMatch(/^Brand Studio cannot start: the configuration is invalid\.\n {2}- AUTH_SECRET/);
    expect(message).not.toContain("hunter2");
  });
});

describe("the configuration's documentation", () => {
  const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
  const example = fs.readFileSync(path.join(ROOT, ".env.example"), "utf8");
  const section = readme.slice(readme.indexOf("## Configuration"));
  const table = section.slice(0, section.indexOf("\n## ", 5));
  // Variables named in the first column of the README table (`A`, `B` in one cell count as two).
  const readmeKeys = table
    .split("\n")
    .filter((line) => line.startsWith("|"))
    .flatMap((line) => [...(line.split("|")[1] ?? "").matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]));
  // Variables .env.example sets or shows commented out (`KEY=` at the start of a line, after an optional `# `).
  const exampleKeys = [...example.matchAll(/^(?:# ?)?([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]);

  it("the README's configuration table lists every variable of the schema, and no other", () => {
    expect([...new Set(readmeKeys)].sort()).toEqual([...ENV_KEYS].sort());
  });

  it(".env.example lists every variable of the schema, and no other", () => {
    expect([...new Set(exampleKeys)].sort()).toEqual([...ENV_KEYS].sort());
  });
});
