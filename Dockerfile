# syntax=docker/dockerfile:1
# The three Agentloom images, one target each; the build context is the repository root (docker
# compose does this):
#   docker build --target gateway        -t agentloom-gateway .         HTTP API on :8000 (and the
#                                                                       agent-runtime replicas)
#   docker build --target builder-worker -t agentloom-builder-worker .  the builds queue's worker
#   docker build --target web            -t agentloom-web .             nginx on :8080
#
# Stages:
#   toolchain     Node 24 LTS, the npm version package.json pins, and every workspace manifest with
#                 the lockfile. Shared, so docker builds it once for all three images;
#   install       the workspace installed exactly as CI installs it (.ci/run);
#   <app>-build   that app and every workspace package it depends on, built as CI builds them
#                 (`turbo run build`, which CI's `npm test` depends on; the web app's own build);
#   <app>-deps    production dependencies only: `npm ci --omit=dev` limited to the app's workspace
#                 and what it depends on. npm rather than `turbo prune`, because the install must go
#                 through the same lockfile, .npmrc and allowScripts policy as CI's;
#   <app>         the image: those node_modules plus the compiled output, as an unprivileged user.
# scripts/check-dockerfiles.mjs (run by .ci/run) checks the RUN and COPY lines below against the
# repository, and each target against what docker-compose.yml builds.

ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS toolchain
# npm 11.19 applies package.json "allowScripts": only argon2's install script runs, and it picks
# the prebuilt binary argon2 ships for linux-x64 glibc (nothing is compiled: no C++ toolchain).
ENV npm_config_update_notifier=false \
    TURBO_TELEMETRY_DISABLED=1 \
    CHECKPOINT_DISABLE=1
RUN npm install -g npm@11.19.1
WORKDIR /app
# Manifests first: the install layers stay cached until a dependency changes. npm needs every
# workspace's package.json to match the lockfile, even when it installs only some of them.
COPY package.json package-lock.json ./
COPY apps/builder-worker/package.json apps/builder-worker/
COPY apps/gateway/package.json apps/gateway/
COPY apps/system-tests/package.json apps/system-tests/
COPY apps/web/package.json apps/web/
COPY packages/agent-runtime/package.json packages/agent-runtime/
COPY packages/contracts/package.json packages/contracts/
COPY packages/data-sources/package.json packages/data-sources/
COPY packages/db/package.json packages/db/
COPY packages/server-kit/package.json packages/server-kit/
COPY packages/source-readers/package.json packages/source-readers/
COPY packages/test-kit/package.json packages/test-kit/
COPY packages/vault/package.json packages/vault/
# The root postinstall (`prisma generate`) reads the schema through prisma.config.ts.
COPY prisma.config.ts ./
COPY prisma ./prisma

FROM toolchain AS install
# As .ci/run installs: exactly the lockfile, which lists every platform's optional binaries.
RUN npm ci --no-audit --no-fund
COPY tsconfig.base.json tsconfig.json turbo.json ./
COPY packages ./packages

# ---- gateway -----------------------------------------------------------------------------------

FROM install AS gateway-build
COPY apps/gateway ./apps/gateway
RUN npx turbo run build --filter=@agentloom/gateway

FROM toolchain AS gateway-deps
# The Prisma CLI stays (an optional peer of @prisma/client, which --omit=dev keeps): migrations
# run when the gateway starts.
RUN npm ci --omit=dev --workspace=@agentloom/gateway --include-workspace-root --no-audit --no-fund
# onnxruntime-node (local embeddings in the preview) ships its binaries for every OS; a Linux image
# needs only Linux's (about 130 MB less). LanceDB's optional @huggingface/transformers (LanceDB's
# own embedding functions, loaded only when one is used: Agentloom embeds with its own) brings a
# second onnxruntime-node for every OS, onnxruntime-web and sharp: 335 MB never loaded.
RUN rm -rf node_modules/onnxruntime-node/bin/napi-v3/darwin node_modules/onnxruntime-node/bin/napi-v3/win32 \
    && cd node_modules/@lancedb/lancedb/node_modules \
    && rm -rf @huggingface onnxruntime-node onnxruntime-web onnxruntime-common sharp @img

# HTTP API on :8000, Socket.IO build progress, previews. It applies pending database migrations,
# then serves. The agent-runtime service runs this image with apps/gateway/dist/runtime-main.js.
FROM ${NODE_IMAGE} AS gateway
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8000 \
    DATA_DIR=/var/lib/agentloom \
    MODEL_CACHE_DIR=/var/cache/agentloom/models \
    CHECKPOINT_DISABLE=1 \
    PRISMA_HIDE_UPDATE_MESSAGE=1
WORKDIR /app
# node_modules (with the generated Prisma client), manifests, prisma/ and prisma.config.ts.
COPY --from=gateway-deps /app ./
COPY --from=gateway-build /app/packages/agent-runtime/dist packages/agent-runtime/dist
COPY --from=gateway-build /app/packages/contracts/dist packages/contracts/dist
COPY --from=gateway-build /app/packages/data-sources/dist packages/data-sources/dist
COPY --from=gateway-build /app/packages/db/dist packages/db/dist
COPY --from=gateway-build /app/packages/server-kit/dist packages/server-kit/dist
COPY --from=gateway-build /app/packages/source-readers/dist packages/source-readers/dist
COPY --from=gateway-build /app/packages/vault/dist packages/vault/dist
COPY --from=gateway-build /app/apps/gateway/dist apps/gateway/dist
# The preview page's scripts and styles, served from files at run time (not compiled).
COPY apps/gateway/preview-assets apps/gateway/preview-assets
COPY scripts/db-migrate.mjs scripts/
# Mount points owned by the runtime user, so fresh named volumes are writable by it: the data
# folder, and the preview's embedding-model cache.
RUN mkdir -p /var/lib/agentloom /var/cache/agentloom/models \
    && chown -R node:node /var/lib/agentloom /var/cache/agentloom
USER node
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
    CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8000)+'/health/live').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Migrations first (`npm run db:migrate`'s script; replicas starting together are serialised by
# Prisma's advisory lock), then the server (`npm start -w @agentloom/gateway`).
CMD ["sh", "-c", "node scripts/db-migrate.mjs && exec node apps/gateway/dist/main.js"]

# ---- builder-worker ----------------------------------------------------------------------------

FROM install AS builder-worker-build
COPY apps/builder-worker ./apps/builder-worker
RUN npx turbo run build --filter=@agentloom/builder-worker

FROM toolchain AS builder-worker-deps
RUN npm ci --omit=dev --workspace=@agentloom/builder-worker --include-workspace-root --no-audit --no-fund
# onnxruntime-node (local embedding models, which the build runs) ships every OS's binaries; and
# LanceDB's optional transformers copy is never loaded (as in gateway-deps).
RUN rm -rf node_modules/onnxruntime-node/bin/napi-v3/darwin node_modules/onnxruntime-node/bin/napi-v3/win32 \
    && cd node_modules/@lancedb/lancedb/node_modules \
    && rm -rf @huggingface onnxruntime-node onnxruntime-web onnxruntime-common sharp @img

# Consumes the builds queue, generates agent projects, embeds RAG sources into their hosted
# indexes and writes zips and indexes to the object store. No port. Scale it with
# `docker compose up --scale builder-worker=N`.
FROM ${NODE_IMAGE} AS builder-worker
ENV NODE_ENV=production \
    DATA_DIR=/var/lib/agentloom \
    MODEL_CACHE_DIR=/var/cache/agentloom/models
WORKDIR /app
COPY --from=builder-worker-deps /app ./
COPY --from=builder-worker-build /app/packages/agent-runtime/dist packages/agent-runtime/dist
COPY --from=builder-worker-build /app/packages/contracts/dist packages/contracts/dist
COPY --from=builder-worker-build /app/packages/data-sources/dist packages/data-sources/dist
COPY --from=builder-worker-build /app/packages/db/dist packages/db/dist
COPY --from=builder-worker-build /app/packages/server-kit/dist packages/server-kit/dist
COPY --from=builder-worker-build /app/packages/source-readers/dist packages/source-readers/dist
COPY --from=builder-worker-build /app/packages/vault/dist packages/vault/dist
COPY --from=builder-worker-build /app/apps/builder-worker/dist apps/builder-worker/dist
# The Python project templates are read at run time (src/generator/templates.ts resolves
# ../../templates from dist/generator), not compiled.
COPY apps/builder-worker/templates apps/builder-worker/templates
# The data folder and the embedding-model cache, owned by the runtime user so fresh named volumes
# are writable by it (both Node images run as `node`, uid 1000).
RUN mkdir -p /var/lib/agentloom /var/cache/agentloom/models \
    && chown -R node:node /var/lib/agentloom /var/cache/agentloom
USER node
# Healthy while the worker itself keeps its health file fresh (every WORKER_HEALTH_INTERVAL_MS,
# after checking Postgres, Redis and its queue consumer live): a stuck worker, or one cut off from
# Postgres or Redis, turns unhealthy; it recovers by itself when they return.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["node", "apps/builder-worker/dist/health-check.js"]
# SIGTERM (docker stop, scaling down) lets running builds finish before the process exits 0;
# compose gives it stop_grace_period for that.
CMD ["node", "apps/builder-worker/dist/main.js"]

# ---- web ---------------------------------------------------------------------------------------

FROM install AS web-build
# The app bundles the contracts from their TypeScript source (apps/web/vite.config.ts).
COPY apps/web ./apps/web
RUN npm run build -w @agentloom/web

# The production build (`npm run build -w @agentloom/web`, as CI builds it for the browser tests)
# served by nginx on :8080 as an unprivileged user, which also forwards the gateway's paths (API,
# Socket.IO, /p/ previews, published agents) to GATEWAY_ADDRESS: one origin for the browser.
# Nothing about the API is compiled in; both settings are read when the container starts:
#   docker run -e GATEWAY_ADDRESS=gateway:8000 [-e API_URL=https://api.example.com] agentloom-web
# Only static files, so the image has no Node and no node_modules at all.
FROM nginxinc/nginx-unprivileged:1.27-alpine AS web
# Templates: the image's entrypoint substitutes the environment into /etc/nginx/conf.d at start.
COPY apps/web/nginx.conf /etc/nginx/templates/default.conf.template
COPY --from=web-build /app/apps/web/dist /usr/share/nginx/html
COPY --from=web-build /app/apps/web/dist/security-headers.conf /etc/nginx/templates/security-headers.inc.template
COPY --from=web-build /app/apps/web/dist/gateway-locations.conf /etc/nginx/snippets/gateway-locations.conf
# host:port of the gateway; API_URL only for a separate API host (empty: this origin).
ENV GATEWAY_ADDRESS=gateway:8000 \
    API_URL=""
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
    CMD ["wget", "-q", "-O", "/dev/null", "http://127.0.0.1:8080/healthz"]
