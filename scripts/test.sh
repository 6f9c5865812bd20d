#!/usr/bin/env bash
# The whole suite on a fresh machine: language servers, then the fast tier
# (scripts/test-fast.sh: type check, build, the tests that need no real
# server), then every test against the compiled binary. Run as `npm test` after
# `npm install` (which brings Bun). Extra arguments go to the whole suite's `bun test`.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-servers.sh
# shellcheck source=scripts/env.sh
source scripts/env.sh

# The fast tier first (type check, lint, build, the tests that need no real
# server): a change that breaks it is said in a minute, not after the suite.
bash scripts/test-fast.sh
echo "== tests"
# Cold servers (rust-analyzer) take seconds; waits are event-driven, this is the backstop.
# Test files run three at a time (most of a test's time is a server's, not
# this process's), the slowest first as test/timings.json measured them
# (refresh it with --update-timings). LSPQ_TEST_JOBS=1 runs them one by one.
LSPQ_TEST_BIN=dist/lspq exec bun test --timeout 120000 --parallel="${LSPQ_TEST_JOBS:-3}" \
  --timings=test/timings.json "$@"
