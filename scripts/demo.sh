#!/usr/bin/env bash
# Serves the demo page at http://127.0.0.1:5173 (installs pnpm and dependencies first if missing).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec pnpm exec vite --host 127.0.0.1 --port 5173 --strictPort "$@"
