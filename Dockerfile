# The service's image: one image for every process; ROLES chooses what a container runs
# (collector, aggregator, api, or all three for the embedded mode). infra/docker-compose.yml
# builds it and starts the cluster topology from it.
#
#   docker build -t stat .
#   docker run --rm -p 127.0.0.1:8080:8080 -p 127.0.0.1:8081:8081 -e HOST=0.0.0.0 stat   # embedded, with the demo
#
# Checked without Docker by server/src/deploy.test.ts (parsed: stages, non-root user, health
# check, the files it copies exist after `npm run build`).

ARG NODE_VERSION=22

# --- build: install everything, build every package, then drop the dev dependencies ---
FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /app
# The manifests first, so that a change of sources does not reinstall the dependencies.
COPY package.json package-lock.json ./
COPY schemas/package.json schemas/
COPY telemetry/package.json telemetry/
COPY storage/package.json storage/
COPY bus/package.json bus/
COPY collector/package.json collector/
COPY aggregator/package.json aggregator/
COPY api/package.json api/
COPY counter-snippet/package.json counter-snippet/
COPY web/package.json web/
COPY server/package.json server/
COPY benchmarks/package.json benchmarks/
RUN npm ci --no-audit --no-fund
COPY tsconfig.base.json tsconfig.json ./
COPY schemas schemas
COPY telemetry telemetry
COPY storage storage
COPY bus bus
COPY collector collector
COPY aggregator aggregator
COPY api api
COPY counter-snippet counter-snippet
COPY web web
COPY server server
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

# --- runtime: the built packages and production dependencies only, as the unprivileged user ---
FROM node:${NODE_VERSION}-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json ./
COPY --from=build --chown=node:node /app/node_modules node_modules
COPY --from=build --chown=node:node /app/schemas/package.json schemas/
COPY --from=build --chown=node:node /app/schemas/dist schemas/dist
COPY --from=build --chown=node:node /app/schemas/migrations schemas/migrations
COPY --from=build --chown=node:node /app/telemetry/package.json telemetry/
COPY --from=build --chown=node:node /app/telemetry/dist telemetry/dist
COPY --from=build --chown=node:node /app/storage/package.json storage/
COPY --from=build --chown=node:node /app/storage/dist storage/dist
COPY --from=build --chown=node:node /app/bus/package.json bus/
COPY --from=build --chown=node:node /app/bus/dist bus/dist
COPY --from=build --chown=node:node /app/collector/package.json collector/
COPY --from=build --chown=node:node /app/collector/dist collector/dist
COPY --from=build --chown=node:node /app/aggregator/package.json aggregator/
COPY --from=build --chown=node:node /app/aggregator/dist aggregator/dist
COPY --from=build --chown=node:node /app/aggregator/data aggregator/data
COPY --from=build --chown=node:node /app/api/package.json api/
COPY --from=build --chown=node:node /app/api/dist api/dist
COPY --from=build --chown=node:node /app/api/migrations api/migrations
COPY --from=build --chown=node:node /app/server/package.json server/
COPY --from=build --chown=node:node /app/server/dist server/dist
COPY --from=build --chown=node:node /app/web/dist web/dist
COPY --from=build --chown=node:node /app/counter-snippet/dist counter-snippet/dist
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
# api, collector, the health port of a process that has neither
EXPOSE 8080 8081 8082
# Each role answers /live on its own port; ROLES decides which one listens.
HEALTHCHECK --interval=10s --timeout=5s --start-period=120s --retries=6 \
  CMD ["node", "server/dist/healthcheck.js"]
CMD ["node", "server/dist/main.js"]
