# One image for both scale-mode processes: the API (main.api.js) and the worker (main.worker.js).
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY domain ./domain
COPY infrastructure ./infrastructure
COPY workflows ./workflows
COPY activities ./activities
COPY migrations ./migrations
COPY catalog ./catalog
COPY scripts ./scripts
# Compiles TypeScript and prebuilds the workflow bundle, so workers start without webpack.
RUN npm run build && npm prune --omit=dev

FROM node:24-bookworm-slim
ENV NODE_ENV=production
# Two glibc heap arenas, a fixed mmap threshold and Node 20's young generation, as the launchers set
# them for their children (src/local/child-processes.ts): the worker's reading threads otherwise keep
# memory they freed, and Node 24 sizes each isolate's young generation by the host's memory.
ENV MALLOC_ARENA_MAX=2
ENV MALLOC_MMAP_THRESHOLD_=1048576
ENV NODE_OPTIONS=--max-semi-space-size=16
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/migrations ./migrations
COPY --from=build /app/catalog ./catalog
COPY --from=build /app/src/console/assets ./src/console/assets
USER node
EXPOSE 3000
CMD ["node", "dist/src/main.api.js"]
