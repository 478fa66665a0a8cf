import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // These hold native or WASM parts and process-wide state (the one PGlite instance, the queue):
  // bundling them would give each route its own copy.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "pg-boss",
    "postgres",
    "sharp",
    "@ffmpeg-installer/ffmpeg",
  ],
  // Tests build into their own folder so a running dev server is never disturbed.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  poweredByHeader: false,
  // The API gate (lib/server/http-guard.ts) and proxy.ts do the trailing-slash redirect themselves, so /api
  // redirects carry X-Request-Id.
  skipTrailingSlashRedirect: true,
  typedRoutes: false,
};

export default nextConfig;
