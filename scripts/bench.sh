#!/usr/bin/env bash
# Runs the Playwright benchmarks in Chromium against the built benchmark page (demo/bench.html): the
# million-update modes, the scheduler's turn rates / queue / loops, and the reactivity cases. Installs what is
# missing first. Writes e2e/results/*.json and *.md, prints the tables, and ends with "N passed, N failed"
# over the benchmarks' gross-regression assertions (ratios only). BENCH_ROUNDS=N changes the rounds (default 7).
set -uo pipefail
cd "$(dirname "$0")/.."
# Before setup: when it fails, no earlier run's results may be left to upload or count as this run's.
mkdir -p .results e2e/results
rm -f .results/bench.json e2e/results/*.md e2e/results/*.json
bash scripts/setup.sh --chromium || exit 1
status=0

echo "== benchmarks (Playwright)"
pnpm exec playwright test -c e2e/bench.config.ts || status=1

# One Markdown file with every table, printed once more at the end in a fixed order.
{
  for name in million scheduler reactivity; do
    [ -f "e2e/results/$name.md" ] && { cat "e2e/results/$name.md"; echo; }
  done
} > e2e/results/bench.md
echo
echo "== benchmark tables (e2e/results/bench.md)"
cat e2e/results/bench.md

node scripts/summary.mjs .results bench || status=1
exit $status
