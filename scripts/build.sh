#!/usr/bin/env bash
# Compiles src/ and bench/ to dist/ (incremental: an unchanged tree rebuilds in seconds),
# copies the worker-thread scripts, which are plain CommonJS loaded by path, and bundles the console.
set -euo pipefail
cd "$(dirname "$0")/.."
npx tsc -p tsconfig.build.json
find src -name '*.cjs' | while read -r file; do
  mkdir -p "dist/$(dirname "$file")"
  cp "$file" "dist/$file"
done
# The browser console (console/src) bundled into dist/console, served at /console.
node scripts/build-console.mjs
