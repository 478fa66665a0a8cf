import { type Env, getEnv } from "@/lib/config";

/** Where each OAuth provider's sign-in page lives: next-auth's sign-in form redirects there (form-action). */
const OAUTH_HOSTS = {
  github: "https://github.com",
  google: "https://accounts.google.com",
} as const;

const PERMISSIONS_POLICY = [
  "accelerometer=()",
  "bluetooth=()",
  "browsing-topics=()",
  "camera=()",
  "display-capture=()",
  "geolocation=()",
  "gyroscope=()",
  "hid=()",
  "magnetometer=()",
  "microphone=()",
  "midi=()",
  "payment=()",
  "serial=()",
  "usb=()",
].join(", ");

/** A fresh nonce per page request, for Next's inline scripts (read from the request's CSP header). */
export const newNonce = () => Buffer.from(crypto.randomUUID()).toString("base64");

/**
 * Where presigned media URLs point when media is in S3, as the S3 client builds them: the endpoint (or
 * AWS's regional host) with path-style addressing, else the bucket as a subdomain of it.
 */
function s3MediaOrigin(env: Env) {
  if (env.MEDIA_STORE !== "s3") return undefined;
  const endpoint = new URL(env.S3_ENDPOINT ?? `https://s3.${env.S3_REGION}.amazonaws.com`);
  if (!env.S3_FORCE_PATH_STYLE && env.S3_BUCKET) endpoint.hostname = `${env.S3_BUCKET}.${endpoint.hostname}`;
  return endpoint.origin;
}

/**
 * The Content-Security-Policy of every page: only our own scripts (Next's inline ones carry the nonce, and
 * 'strict-dynamic' lets them load the chunks), no plugins, no framing by anyone, forms only to us and the
 * OAuth providers that are configured, media and images from us and the S3 endpoint when media is in S3.
 * `next dev` needs 'unsafe-eval' for React's dev tooling; production never gets it. A page prerendered at
 * build time (the API docs) has no per-request HTML to put a nonce in: it gets 'unsafe-inline' scripts
 * instead (everything else in the policy holds; see RELIABILITY.md).
 */
export function contentSecurityPolicy(nonce: string | undefined, env: Env = getEnv()) {
  const development = env.NODE_ENV === "development";
  const s3 = s3MediaOrigin(env);
  const oauth = [
    env.GITHUB_ID ? OAUTH_HOSTS.github : undefined,
    env.GOOGLE_CLIENT_ID ? OAUTH_HOSTS.google : undefined,
  ];
  const list = (...sources: (string | undefined)[]) => sources.filter(Boolean).join(" ");
  // Connected channels show the account's avatar from the platform's CDN (or a local fake's host).
  const origin = (url: string | undefined) => (url ? new URL(url).origin : undefined);
  const avatars = [
    ...(env.LINKEDIN_CLIENT_ID ? ["https://media.licdn.com", origin(env.LINKEDIN_API_BASE_URL)] : []),
    ...(env.INSTAGRAM_APP_ID
      ? ["https://*.cdninstagram.com", "https://*.fbcdn.net", origin(env.INSTAGRAM_GRAPH_BASE_URL)]
      : []),
  ].filter((source, index, all) => source && all.indexOf(source) === index);
  const directives = [
    "default-src 'self'",
    `script-src ${list(
      "'self'",
      ...(nonce ? [`'nonce-${nonce}'`, "'strict-dynamic'"] : ["'unsafe-inline'"]),
      development ? "'unsafe-eval'" : undefined,
    )}`,
    "style-src 'self' 'unsafe-inline'",
    `img-src ${list("'self'", "data:", "blob:", s3, ...avatars)}`,
    `media-src ${list("'self'", "blob:", s3)}`,
    "font-src 'self' data:",
    `connect-src ${list("'self'", development ? "ws:" : undefined)}`,
    "worker-src 'self' blob:",
    "frame-src 'none'",
    "frame-ancestors 'none'",
    "object-src 'none'",
    "base-uri 'self'",
    `form-action ${list("'self'", ...oauth)}`,
    ...(isHttps(env) ? ["upgrade-insecure-requests"] : []),
  ];
  return directives.join("; ");
}

const isHttps = (env: Env) => env.APP_URL?.startsWith("https:") ?? false;

/**
 * The headers every response carries, pages, media and API alike (the CSP is added to pages by proxy.ts).
 * HSTS only when the service is served over https (APP_URL).
 */
export function baseSecurityHeaders(env: Env = getEnv()): Record<string, string> {
  return {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "Permissions-Policy": PERMISSIONS_POLICY,
    "X-Frame-Options": "DENY",
    ...(isHttps(env) ? { "Strict-Transport-Security": "max-age=31536000; includeSubDomains" } : {}),
  };
}
