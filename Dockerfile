# The platform's production image: build, then a slim non-root runtime.
#   docker build -t insurer-platform .
#   docker compose up -d          # with EventStoreDB and MongoDB (docker-compose.yml)
# The runtime runs the compiled JavaScript (dist/) and serves the built portal (portal/dist); no TypeScript
# loader, no compiler, no dev dependencies.

# ---- build: dependencies (better-sqlite3 compiles here when no prebuilt binary fits), then the production
# builds that `npm ci` makes (its prepare script): tsc into dist/, and the portal (vite) into portal/dist ----
FROM node:20-bookworm AS build
WORKDIR /app
# the dependency layer is built before the sources are copied (kept while only sources change): npm ci's
# prepare script (bin/prepare.js) finds no tsconfig.build.json yet and skips the builds, run once below
COPY package.json package-lock.json ./
COPY bin/prepare.js ./bin/
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY domain ./domain
COPY commands ./commands
COPY projections ./projections
COPY http ./http
COPY infra ./infra
COPY portal ./portal
RUN npm run build && npm run build:portal && npm prune --omit=dev --no-audit --no-fund

# ---- runtime ----
FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    PORT=8080 \
    HOST=0.0.0.0 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# the web console, served at /portal
COPY --from=build /app/portal/dist ./portal/dist
COPY package.json ./
COPY bin/platform.js ./bin/
# the embedded stores and the generated key-encryption secret live in /data (a volume): owned by the
# unprivileged user the platform runs as
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
# liveness: the process answers (readiness, /health/ready, also waits for the stores and the projections)
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT || 8080}/health/live`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["node", "--enable-source-maps", "bin/platform.js"]
CMD ["start"]
