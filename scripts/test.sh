#!/usr/bin/env bash
# Runs every test: typecheck, unit (Vitest + happy-dom), browser (Vitest browser mode in Chromium),
# and e2e (Playwright in Chromium against the built demo). Installs what is missing first.
# Every runner runs even when an earlier one fails; the last line sums them: "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --chromium || exit 1

results=.results
rm -rf "$results" && mkdir -p "$results"
status=0

echo "== typecheck (tsc --noEmit)"
if pnpm exec tsc --noEmit -p tsconfig.json; then
  echo '{"passed":1,"failed":0}' > "$results/typecheck.json"
else
  echo '{"passed":0,"failed":1}' > "$results/typecheck.json"; status=1
fi

echo "== build packages"
pnpm -r --filter './packages/*' run build || status=1

echo "== unit + browser tests (Vitest)"
pnpm exec vitest run --reporter=default --reporter=json --outputFile.json="$results/vitest.json" || status=1

echo "== e2e tests (Playwright)"
pnpm exec playwright test -c e2e/playwright.config.ts || status=1

node scripts/summary.mjs "$results" || status=1
exit $status
