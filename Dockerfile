# The service's image: built in one stage, run from a second that holds only the compiled JavaScript and
# the production dependencies, as a non-root user, with tini as PID 1 so that SIGTERM reaches the service
# (its readiness fails, it drains, then stops: README, "Running in production").
#
#   docker build -t travel-partner .
#
# Node.js 24 LTS. The machines this project is developed on cannot pull images: the same processes run
# without containers in test/topology.test.ts (bench/topology.ts).

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# `prepare` (the build) needs the sources: the dependencies first, so that this layer is cached.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN node scripts/build.mjs && npm prune --omit=dev --no-audit --no-fund

FROM node:24-bookworm-slim
RUN apt-get update \
  && apt-get install -y --no-install-recommends tini \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV NODE_ENV=production PORT=8080 HOST=0.0.0.0
COPY --from=build --chown=root:root /app/package.json ./package.json
COPY --from=build --chown=root:root /app/node_modules ./node_modules
COPY --from=build --chown=root:root /app/dist ./dist
# The code belongs to root and is read-only to the service; it writes only its data directory.
RUN mkdir -p /var/lib/travel-partner && chown node:node /var/lib/travel-partner
ENV DATA_DIR=/var/lib/travel-partner
USER node
EXPOSE 8080
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "dist/start/main.js"]
