#!/usr/bin/env bash
# The fast tier (`npm run test:fast`, and the first step of `npm test`):
# type check, format and lint, build, then the tests that need no real
# language server, against the compiled binary: the unit tests, the
# handler-level tests over a canned fake server (test/handlers), and the
# integration tests whose only servers are the fakes of test/fakes or none
# at all (git's). Extra arguments go to `bun test`.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== type check"
bun x tsc --noEmit -p .
echo "== format and lint"
bun x biome ci --reporter=summary
echo "== build"
bun run build
echo "== fast tests"
# Each file below starts no real language server: a server lspq would
# start for one of them is a fake (malformed answers, held memory) or none
# (git, shell completion, a binary replaced under its daemon).
NO_REAL_SERVER=(
  test/integration/malformed-server.test.ts
  test/integration/memory.test.ts
  test/integration/completion.test.ts
  test/integration/replaced-binary.test.ts
  test/integration/git-json.test.ts
  test/integration/git-repo.test.ts
  test/integration/git-options.test.ts
  test/integration/git-policy.test.ts
  test/integration/git-hostile.test.ts
)
LSPQ_TEST_BIN=dist/lspq exec bun test --timeout 60000 --parallel="${LSPQ_TEST_JOBS:-3}" \
  --timings=test/timings.json test/unit test/handlers "${NO_REAL_SERVER[@]}" "$@"
