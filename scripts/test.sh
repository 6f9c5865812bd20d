#!/usr/bin/env bash
# The whole suite on a fresh machine: language servers, type check, build,
# then every test against the compiled binary. Run as `npm test` after
# `npm install` (which brings Bun). Extra arguments go to `bun test`.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-servers.sh
# shellcheck source=scripts/env.sh
source scripts/env.sh

echo "== type check"
bun x tsc --noEmit -p .
echo "== format and lint"
bun x biome ci --reporter=summary
echo "== build"
bun run build
echo "== tests"
# Cold servers (rust-analyzer) take seconds; waits are event-driven, this is the backstop.
LSPQ_TEST_BIN=dist/lspq exec bun test --timeout 120000 "$@"
