# One image for the API, the worker and the admin CLI; choose with the command:
#   node apps/api/dist/main.js             the API (default)
#   node apps/worker/dist/main.js          a worker (set HEALTH_PORT for its health check)
#   node apps/admin/dist/main.js <command> the admin CLI, e.g. migrate or seed-demo --json
# The image runs compiled JavaScript with plain Node: no TypeScript, no loader, no dev dependencies.

# Build stage: every dependency (TypeScript included), then `npm run build` (tsc -b).
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY apps/api/package.json apps/api/
COPY apps/worker/package.json apps/worker/
COPY apps/admin/package.json apps/admin/
COPY packages/client/package.json packages/client/
COPY packages/config/package.json packages/config/
COPY packages/contracts/package.json packages/contracts/
COPY packages/core/package.json packages/core/
COPY packages/db/package.json packages/db/
COPY packages/local-servers/package.json packages/local-servers/
COPY packages/logic/package.json packages/logic/
COPY packages/observability/package.json packages/observability/
COPY packages/queue/package.json packages/queue/
COPY packages/testing/package.json packages/testing/
COPY patches/ patches/
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.emit.json tsconfig.build.json ./
COPY apps/ apps/
COPY packages/ packages/
RUN npm run build

# Runtime stage: production dependencies only (npm ci --omit=dev runs the root postinstall,
# which applies patches/ to them), the compiled dist/ of each project and the migrations.
FROM node:22-bookworm-slim AS runtime
ENV NODE_ENV=production
# Stack traces name TypeScript files and lines (the .map files ship beside the .js).
ENV NODE_OPTIONS=--enable-source-maps
WORKDIR /app
COPY package.json package-lock.json ./
COPY apps/api/package.json apps/api/
COPY apps/worker/package.json apps/worker/
COPY apps/admin/package.json apps/admin/
COPY packages/client/package.json packages/client/
COPY packages/config/package.json packages/config/
COPY packages/contracts/package.json packages/contracts/
COPY packages/core/package.json packages/core/
COPY packages/db/package.json packages/db/
COPY packages/local-servers/package.json packages/local-servers/
COPY packages/logic/package.json packages/logic/
COPY packages/observability/package.json packages/observability/
COPY packages/queue/package.json packages/queue/
COPY packages/testing/package.json packages/testing/
COPY patches/ patches/
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
# Migrations are read at start from drizzle/ at the repository root (packages/db/dist/migrate.js
# resolves ../../../drizzle from itself, as the sources do).
COPY drizzle/ drizzle/
COPY --from=build /app/apps/api/dist apps/api/dist
COPY --from=build /app/apps/worker/dist apps/worker/dist
COPY --from=build /app/apps/admin/dist apps/admin/dist
COPY --from=build /app/packages/client/dist packages/client/dist
COPY --from=build /app/packages/config/dist packages/config/dist
COPY --from=build /app/packages/contracts/dist packages/contracts/dist
COPY --from=build /app/packages/local-servers/dist packages/local-servers/dist
COPY --from=build /app/packages/core/dist packages/core/dist
COPY --from=build /app/packages/db/dist packages/db/dist
COPY --from=build /app/packages/logic/dist packages/logic/dist
COPY --from=build /app/packages/observability/dist packages/observability/dist
COPY --from=build /app/packages/queue/dist packages/queue/dist
# insp-sync ships too (its dependencies are installed with the workspace anyway):
#   node packages/client/bin/insp-sync.mjs --help
COPY packages/client/bin packages/client/bin
# The app directory stays root's and read-only to the app; the one place it writes (the folder
# media store) is /data/media, a volume in docker-compose.yml.
RUN mkdir -p /data/media && chown node /data/media
ENV MEDIA_DIR=/data/media
USER node
EXPOSE 3000
# The API answers on PORT; a worker started with HEALTH_PORT answers there instead, so one check
# serves both (a worker without HEALTH_PORT has no health endpoint and reports unhealthy).
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "const p = process.env.HEALTH_PORT || process.env.PORT || 3000; fetch(`http://127.0.0.1:${p}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "apps/api/dist/main.js"]
