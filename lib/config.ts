import path from "node:path";
import { z } from "zod";

/**
 * The whole environment, parsed once with one schema. This is the only module that reads `process.env`
 * (Next's own NEXT_RUNTIME/NEXT_DIST_DIR and the system PATH aside). Start-up calls `assertConfig()`, which
 * stops the process with one message naming every bad variable; everything else reads `getEnv()` or `config`.
 * An empty value counts as unset, as compose files and shells often leave them.
 */

const unset = (value: unknown) => (value === "" ? undefined : value);
const text = () => z.preprocess(unset, z.string().optional());
const flag = () =>
  z.preprocess(
    unset,
    z
      .enum(["true", "false", "1", "0"], { error: 'expected "true" or "false"' })
      .transform((value) => value === "true" || value === "1")
      .optional(),
  );
const int = (min: number, max: number, fallback: number) =>
  z.preprocess(
    unset,
    z.coerce
      .number({ error: `expected a whole number from ${min} to ${max}` })
      .int({ error: `expected a whole number from ${min} to ${max}` })
      .min(min, { error: `expected a whole number from ${min} to ${max}` })
      .max(max, { error: `expected a whole number from ${min} to ${max}` })
      .default(fallback),
  );
const url = (protocols: RegExp, expected: string) =>
  z.preprocess(
    unset,
    z
      .url({ protocol: protocols, error: `expected ${expected}` })
      .transform((value) => value.replace(/\/+$/, ""))
      .optional(),
  );
const httpUrl = () => url(/^https?$/, "an http(s) URL");
const choice = <const T extends readonly [string, ...string[]]>(values: T, fallback: T[number]) =>
  z.preprocess(unset, z.enum(values, { error: `expected one of ${values.join(", ")}` }).default(fallback));

/** The OpenTelemetry SDK's standard sampler names. */
const TRACES_SAMPLERS = [
  "always_on",
  "always_off",
  "traceidratio",
  "parentbased_always_on",
  "parentbased_always_off",
  "parentbased_traceidratio",
] as const;

/** Every variable the app reads, with its default. README's table and .env.example follow this list. */
const envObject = z.object({
  NODE_ENV: choice(["development", "production", "test"] as const, "development"),
  PORT: int(1, 65535, 3000),
  DATA_DIR: z.preprocess(unset, z.string().default(".data")),
  DATABASE_URL: url(/^postgres(ql)?$/, "a postgres:// or postgresql:// URL"),
  AUTH_SECRET: text(),
  ALLOW_SIGNUP: flag(),
  SEED_DEMO: flag(),
  NEXTAUTH_URL: httpUrl(),
  AUTH_TRUST_HOST: flag(),
  APP_URL: httpUrl(),
  // Invitations are emailed through this server when set (smtp:// or smtps://, credentials in the URL);
  // without it the owner copies the link. SMTP_FROM is the sender (default: Brand Studio <no-reply@host>).
  SMTP_URL: url(/^smtps?$/, "an smtp:// or smtps:// URL"),
  SMTP_FROM: text(),
  GITHUB_ID: text(),
  GITHUB_SECRET: text(),
  GOOGLE_CLIENT_ID: text(),
  GOOGLE_CLIENT_SECRET: text(),
  OPENAI_API_KEY: text(),
  OPENAI_BASE_URL: httpUrl(),
  OPENAI_MODEL: z.preprocess(unset, z.string().default("gpt-4o-mini")),
  AI_TIMEOUT_MS: int(1, 600_000, 20_000),
  // Media-plan images: the image model used with OPENAI_API_KEY or OPENAI_BASE_URL (without either, a
  // branded card is drawn locally), and how long one generation may take.
  IMAGE_MODEL: z.preprocess(unset, z.string().default("gpt-image-1")),
  IMAGE_TIMEOUT_MS: int(1, 600_000, 120_000),
  // Speech for the local renderer: OpenAI's speech model and default voice (a brand may pick its own).
  TTS_MODEL: z.preprocess(unset, z.string().default("gpt-4o-mini-tts")),
  TTS_VOICE: z.preprocess(unset, z.string().default("alloy")),
  // The speech engines the local renderer may use, in order of preference (openai needs OPENAI_API_KEY);
  // "none" turns speech off (the video then carries a warning).
  TTS_ENGINES: z.preprocess(
    unset,
    z
      .string()
      .default("openai,espeak-ng,espeak-wasm")
      .refine(
        (value) => /^(none|(openai|espeak-ng|espeak-wasm)(,(openai|espeak-ng|espeak-wasm))*)$/.test(value),
        {
          message: 'expected "none" or a comma list of openai, espeak-ng, espeak-wasm',
        },
      ),
  ),
  VIDEO_PROVIDER: choice(["local", "heygen", "did"] as const, "local"),
  FFMPEG_PATH: text(),
  // ffmpeg threads per render; 0 = the machine's cores (set cores ÷ workers when workers share a machine).
  VIDEO_RENDER_THREADS: int(0, 256, 0),
  WORKER: choice(["inline", "off"] as const, "inline"),
  // On SIGTERM a worker finishes its running job within this grace, else gives it back to the queue.
  WORKER_SHUTDOWN_GRACE_SECONDS: int(1, 3600, 8),
  VIDEO_MONTHLY_QUOTA: int(0, 100_000, 30),
  VIDEO_MONTHLY_QUOTA_MAX: z.preprocess(unset, z.coerce.number().int().min(0).max(100_000).optional()),
  RATE_LIMIT_GENERATE_PER_MINUTE: int(1, 100_000, 20),
  RATE_LIMIT_VIDEO_PER_MINUTE: int(1, 100_000, 10),
  RATE_LIMIT_IMAGE_PER_MINUTE: int(1, 100_000, 10),
  RATE_LIMIT_SIGNUP_PER_MINUTE: int(1, 100_000, 5),
  RATE_LIMIT_INVITE_PER_HOUR: int(1, 100_000, 20),
  RATE_LIMIT_INVITE_PER_BRAND_PER_HOUR: int(1, 100_000, 50),
  AUTH_LOCKOUT_THRESHOLD: int(1, 1000, 5),
  AUTH_IP_LOCKOUT_THRESHOLD: int(1, 100_000, 50),
  AUTH_LOCKOUT_BASE_SECONDS: int(1, 3600, 30),
  TRUST_PROXY_HOPS: int(0, 10, 0),
  MEDIA_STORE: choice(["local", "s3"] as const, "local"),
  S3_ENDPOINT: httpUrl(),
  S3_REGION: z.preprocess(unset, z.string().default("us-east-1")),
  S3_BUCKET: text(),
  S3_ACCESS_KEY_ID: text(),
  S3_SECRET_ACCESS_KEY: text(),
  S3_FORCE_PATH_STYLE: flag(),
  // S3 presigned URLs live at most 7 days, so that is the ceiling for both stores.
  MEDIA_URL_TTL_SECONDS: int(60, 604_800, 604_800),
  HEYGEN_API_KEY: text(),
  HEYGEN_BASE_URL: httpUrl(),
  HEYGEN_UPLOAD_BASE_URL: httpUrl(),
  DID_API_KEY: text(),
  DID_BASE_URL: httpUrl(),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: flag(),
  // How often the worker asks a hosted provider about a job (± a quarter of it, as jitter).
  PROVIDER_POLL_INTERVAL_MS: int(50, 600_000, 6000),
  // The circuit breaker: this many 5xx answers or timeouts in a row open it for the cool-down.
  PROVIDER_BREAKER_THRESHOLD: int(1, 1000, 5),
  PROVIDER_BREAKER_COOLDOWN_SECONDS: int(1, 3600, 30),
  // Upper bound for one request to a hosted video provider.
  PROVIDER_TIMEOUT_MS: int(100, 600_000, 20_000),
  // First retry of a failed webhook delivery, doubling up to about a day in all.
  WEBHOOK_RETRY_DELAY_SECONDS: int(1, 3600, 30),
  // Observability (docs/observability.md). Traces go to an OTLP/HTTP endpoint only when it is set; the
  // OpenTelemetry SDK reads these (and any other OTEL_* variable) itself.
  OTEL_EXPORTER_OTLP_ENDPOINT: httpUrl(),
  OTEL_EXPORTER_OTLP_PROTOCOL: choice(["http/protobuf", "http/json", "grpc"] as const, "http/protobuf"),
  OTEL_SERVICE_NAME: text(),
  // Unset: parent-based, sampling OTEL_TRACES_SAMPLER_ARG of the traces that start here (lib/telemetry/start-tracing.ts).
  OTEL_TRACES_SAMPLER: z.preprocess(
    unset,
    z.enum(TRACES_SAMPLERS, { error: `expected one of ${TRACES_SAMPLERS.join(", ")}` }).optional(),
  ),
  OTEL_TRACES_SAMPLER_ARG: z.preprocess(
    unset,
    z.coerce
      .number({ error: "expected a ratio from 0 to 1" })
      .min(0, { error: "expected a ratio from 0 to 1" })
      .max(1, { error: "expected a ratio from 0 to 1" })
      .default(0.1),
  ),
  // Bearer token for GET /api/metrics (unset: 404) and the worker's metrics port (unset: no server).
  METRICS_TOKEN: text(),
  METRICS_PORT: z.preprocess(
    unset,
    z.coerce
      .number({ error: "expected a port from 1 to 65535" })
      .int({ error: "expected a port from 1 to 65535" })
      .min(1, { error: "expected a port from 1 to 65535" })
      .max(65535, { error: "expected a port from 1 to 65535" })
      .optional(),
  ),
  // Channel credentials (bot tokens, OAuth tokens) are encrypted with a key from this, else from AUTH_SECRET.
  ENCRYPTION_KEY: text(),
  TELEGRAM_API_BASE_URL: httpUrl(),
  // Where Telegram POSTs a channel bot's updates (reaction counts); default APP_URL when it is public https.
  TELEGRAM_WEBHOOK_BASE_URL: httpUrl(),
  // LinkedIn through OAuth (a confidential web client): both set turn the channel on.
  LINKEDIN_CLIENT_ID: text(),
  LINKEDIN_CLIENT_SECRET: text(),
  LINKEDIN_AUTH_BASE_URL: httpUrl(),
  LINKEDIN_API_BASE_URL: httpUrl(),
  // Company pages too: needs LinkedIn's Community Management API product on the app (its scopes).
  LINKEDIN_ORGANIZATIONS: flag(),
  // Instagram through "Instagram API with Instagram Login" (a professional account): both set turn it on.
  INSTAGRAM_APP_ID: text(),
  INSTAGRAM_APP_SECRET: text(),
  // The consent page (www.instagram.com), the code exchange (api.instagram.com) and the Graph API.
  INSTAGRAM_AUTH_BASE_URL: httpUrl(),
  INSTAGRAM_TOKEN_BASE_URL: httpUrl(),
  INSTAGRAM_GRAPH_BASE_URL: httpUrl(),
  // Upper bound for one call to a publishing platform (a video upload included).
  PUBLISH_TIMEOUT_MS: int(100, 600_000, 60_000),
  // How often each worker looks for publications left `publishing` by a worker that died.
  PUBLISH_SWEEP_INTERVAL_SECONDS: int(1, 3600, 30),
});

/**
 * Rules across variables. They read the raw values, so they are reported together with every type error
 * instead of only after the types are right.
 */
function crossChecks(source: Record<string, string | undefined>): string[] {
  const value = (key: EnvKey) => (source[key] === "" ? undefined : source[key]);
  const problems: string[] = [];
  const need = (key: EnvKey, why: string) => {
    if (!value(key)) problems.push(`${key}: required ${why}; got unset`);
  };
  if (value("NODE_ENV") === "production") {
    const secret = value("AUTH_SECRET");
    if (!secret) need("AUTH_SECRET", "in production (at least 32 bytes)");
    else if (Buffer.byteLength(secret) < 32) {
      problems.push(
        `AUTH_SECRET: expected at least 32 bytes in production; got ${shown("AUTH_SECRET", secret)}`,
      );
    }
  }
  if (value("MEDIA_STORE") === "s3") {
    for (const key of ["S3_BUCKET", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"] as const)
      need(key, "when MEDIA_STORE=s3");
  }
  const encryptionKey = value("ENCRYPTION_KEY");
  if (encryptionKey && Buffer.byteLength(encryptionKey) < 32) {
    problems.push(
      `ENCRYPTION_KEY: expected at least 32 bytes; got ${shown("ENCRYPTION_KEY", encryptionKey)}`,
    );
  }
  if (value("VIDEO_PROVIDER") === "heygen") need("HEYGEN_API_KEY", "when VIDEO_PROVIDER=heygen");
  if (value("VIDEO_PROVIDER") === "did") need("DID_API_KEY", "when VIDEO_PROVIDER=did");
  for (const [id, secret] of [
    ["GITHUB_ID", "GITHUB_SECRET"],
    ["GOOGLE_CLIENT_ID", "GOOGLE_CLIENT_SECRET"],
    ["LINKEDIN_CLIENT_ID", "LINKEDIN_CLIENT_SECRET"],
    ["INSTAGRAM_APP_ID", "INSTAGRAM_APP_SECRET"],
  ] as const) {
    if (Boolean(value(id)) !== Boolean(value(secret)))
      need(value(id) ? secret : id, `together with ${value(id) ? id : secret}`);
  }
  return problems;
}

export const envSchema = envObject.transform((env) => {
  const production = env.NODE_ENV === "production";
  return {
    ...env,
    DATA_DIR: path.resolve(/*turbopackIgnore: true*/ env.DATA_DIR),
    ALLOW_SIGNUP: env.ALLOW_SIGNUP ?? true,
    SEED_DEMO: env.SEED_DEMO ?? !production,
    APP_URL: env.APP_URL ?? env.NEXTAUTH_URL,
    S3_FORCE_PATH_STYLE: env.S3_FORCE_PATH_STYLE ?? false,
    HEYGEN_BASE_URL: env.HEYGEN_BASE_URL ?? "https://api.heygen.com",
    HEYGEN_UPLOAD_BASE_URL: env.HEYGEN_UPLOAD_BASE_URL ?? "https://upload.heygen.com",
    DID_BASE_URL: env.DID_BASE_URL ?? "https://api.d-id.com",
    TELEGRAM_API_BASE_URL: env.TELEGRAM_API_BASE_URL ?? "https://api.telegram.org",
    LINKEDIN_AUTH_BASE_URL: env.LINKEDIN_AUTH_BASE_URL ?? "https://www.linkedin.com",
    LINKEDIN_API_BASE_URL: env.LINKEDIN_API_BASE_URL ?? "https://api.linkedin.com",
    LINKEDIN_ORGANIZATIONS: env.LINKEDIN_ORGANIZATIONS ?? false,
    INSTAGRAM_AUTH_BASE_URL: env.INSTAGRAM_AUTH_BASE_URL ?? "https://www.instagram.com",
    INSTAGRAM_TOKEN_BASE_URL: env.INSTAGRAM_TOKEN_BASE_URL ?? "https://api.instagram.com",
    INSTAGRAM_GRAPH_BASE_URL: env.INSTAGRAM_GRAPH_BASE_URL ?? "https://graph.instagram.com",
    WEBHOOK_ALLOW_PRIVATE_TARGETS: env.WEBHOOK_ALLOW_PRIVATE_TARGETS ?? !production,
  };
});

export type Env = z.output<typeof envSchema>;
export type EnvKey = keyof typeof envObject.shape;

/** Every variable's name, in the schema's order (the README table and .env.example are tested against it). */
export const ENV_KEYS = Object.keys(envObject.shape) as EnvKey[];
const SECRET = /SECRET|API_KEY|PASSWORD|TOKEN|ENCRYPTION_KEY|SMTP_URL/;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(
      `Brand Studio cannot start: the configuration is invalid.\n${problems.map((p) => `  - ${p}`).join("\n")}`,
    );
    this.name = "ConfigError";
  }
}

/** What a variable held, for the error message; secrets show only their length. */
function shown(key: string, value: string | undefined) {
  if (value === undefined || value === "") return "unset";
  if (SECRET.test(key)) return `a hidden value of ${Buffer.byteLength(value)} bytes`;
  return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
}

/** Parses an environment; throws ConfigError listing every bad variable at once. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = envSchema.safeParse(source);
  const problems = (result.error?.issues ?? []).map((issue) => {
    const key = String(issue.path[0] ?? "environment");
    return `${key}: ${issue.message}; got ${shown(key, source[key])}`;
  });
  problems.push(...crossChecks(source));
  if (problems.length > 0 || !result.success) throw new ConfigError(problems);
  return result.data;
}

// Parsed once per distinct environment, so tests that change process.env get a new parse. A production
// process never changes its environment, and reading process.env costs a native call per variable, on
// every request: there the first parse is kept for good.
const cache = globalThis as unknown as { brandStudioEnv?: { key: string; env: Env; final: boolean } };

export function getEnv(): Env {
  if (cache.brandStudioEnv?.final) return cache.brandStudioEnv.env;
  const key = ENV_KEYS.map((name) => process.env[name] ?? "").join("\u0000");
  if (cache.brandStudioEnv?.key !== key) {
    const env = parseEnv(process.env);
    cache.brandStudioEnv = { key, env, final: env.NODE_ENV === "production" && !process.env.VITEST };
  }
  return cache.brandStudioEnv.env;
}

/** Start-up: validate the environment, or print one message and exit non-zero before anything listens. */
export function assertConfig(): Env {
  try {
    return getEnv();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`\n${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

/** What `next start` (production) or `next dev` (development) would set when NODE_ENV is unset. */
export function applyNodeEnvDefault(value: "production" | "development") {
  if (!process.env.NODE_ENV) Object.assign(process.env, { NODE_ENV: value });
}

/**
 * next-auth v4 reads NEXTAUTH_URL and AUTH_TRUST_HOST from process.env itself. Without NEXTAUTH_URL it would
 * fall back to http://localhost:3000; the README promises the request's host, so unless the operator set
 * AUTH_TRUST_HOST (true or false) it is turned on here. Set NEXTAUTH_URL in production behind a proxy.
 */
export function applyAuthOriginDefault() {
  const env = getEnv();
  if (!env.NEXTAUTH_URL && env.AUTH_TRUST_HOST === undefined) process.env.AUTH_TRUST_HOST = "true";
}

/** Short names for what most modules need. */
export const config = {
  get dataDir() {
    return getEnv().DATA_DIR;
  },
  get databaseUrl() {
    return getEnv().DATABASE_URL;
  },
  get allowSignup() {
    return getEnv().ALLOW_SIGNUP;
  },
  get worker() {
    return getEnv().WORKER;
  },
  get videoProvider() {
    return getEnv().VIDEO_PROVIDER;
  },
  get videoMonthlyQuota() {
    return getEnv().VIDEO_MONTHLY_QUOTA;
  },
  get isProduction() {
    return getEnv().NODE_ENV === "production";
  },
};
