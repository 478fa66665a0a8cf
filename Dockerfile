# syntax=docker/dockerfile:1
# One image for every role of a deployment (see docs/deploy.md and compose.yaml):
#   web      node scripts/start.mjs            (npm start: checks the configuration, then `next start`)
#   worker   node --conditions=react-server --import tsx worker/index.ts (npm run worker)
#   migrate  npm run db:migrate                (one-shot, before web and workers of a new version start)
# Plain `next build`, not `output: "standalone"`: the worker and the migrations run from source through tsx
# and need the whole production node_modules (pg-boss, PGlite, sharp), which the standalone trace leaves out.

ARG NODE_IMAGE=node:22-bookworm-slim

FROM ${NODE_IMAGE} AS base
ENV NEXT_TELEMETRY_DISABLED=1
WORKDIR /app

# Dependencies from the committed lockfile, exactly.
FROM base AS deps
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

# The Next build, then drop the build-only packages (TypeScript, test tools, Biome).
FROM deps AS build
COPY . .
RUN npx next build \
 && npm prune --omit=dev --no-audit --no-fund \
 && rm -rf .next/cache

FROM base AS runtime
# The local video renderer needs ffmpeg, espeak-ng (speech), DejaVu (text) and Noto (captions in Arabic,
# Hebrew, Chinese, Japanese and other scripts, drawn by libass), from Debian.
# jemalloc: an allocator that gives freed memory back (scripts/allocator.mjs says why).
RUN apt-get update \
 && apt-get install -y --no-install-recommends ffmpeg espeak-ng fonts-dejavu-core fonts-noto-core \
    fonts-noto-cjk libjemalloc2 ca-certificates tini \
 && ln -s "$(ls /usr/lib/*-linux-gnu/libjemalloc.so.2)" /usr/local/lib/libjemalloc.so.2 \
 && rm -rf /var/lib/apt/lists/*
# Every process of the image (web, worker, migrate) on jemalloc, with its background purge: what
# scripts/start.mjs gives `npm start` outside the image; the worker draws images too. Two glibc arenas for
# a process started without the preload.
ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/data \
    LD_PRELOAD=/usr/local/lib/libjemalloc.so.2 \
    MALLOC_CONF=background_thread:true \
    MALLOC_ARENA_MAX=2
COPY --from=build --chown=root:root /app /app
# The node image's unprivileged user owns the writable folders (data, Next's cache) and nothing else.
RUN mkdir -p /data /app/.next/cache && chown node:node /data /app/.next/cache
USER node
EXPOSE 3000
VOLUME ["/data"]
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/health').then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# tini forwards SIGTERM to node and reaps ffmpeg children.
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "scripts/start.mjs"]
