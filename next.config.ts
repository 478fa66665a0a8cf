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
  // proxy.ts does the trailing-slash redirect itself, so /api redirects carry X-Request-Id.
  skipTrailingSlashRedirect: true,
  experimental: {
    // The proxy sees a copy of each body; more than the largest body any route accepts (an avatar upload:
    // 5 MB plus multipart overhead) is never needed, and the route then answers 413 itself.
    proxyClientMaxBodySize: "6mb",
  },
  typedRoutes: false,
};

export default nextConfig;
