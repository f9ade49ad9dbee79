# One image for the API, the worker and the admin CLI (choose with the command).
FROM node:22-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
COPY apps/api/package.json apps/api/
COPY apps/worker/package.json apps/worker/
COPY apps/admin/package.json apps/admin/
COPY packages/config/package.json packages/config/
COPY packages/contracts/package.json packages/contracts/
COPY packages/core/package.json packages/core/
COPY packages/db/package.json packages/db/
COPY packages/logic/package.json packages/logic/
COPY packages/queue/package.json packages/queue/
COPY packages/testing/package.json packages/testing/
COPY patches/ patches/
RUN npm ci --omit=dev --no-audit --no-fund
COPY . .
RUN mkdir -p /data/media && chown node /data/media
USER node
EXPOSE 3000
CMD ["node", "--import", "tsx", "apps/api/src/main.ts"]
