#!/usr/bin/env bash
# Installs what the project needs and is missing, and nothing else:
#   pnpm at the pinned version, the dependencies from the frozen lockfile, and (with --chromium) Chromium.
# Fast when everything is already there.
set -euo pipefail
cd "$(dirname "$0")/.."

PNPM_VERSION=12.21.0
CHROMIUM=${CHROMIUM_PATH:-/usr/bin/chromium}
is_root() { [ "$(id -u)" = 0 ]; }
fail() { printf 'setup: %s\n' "$*" >&2; exit 1; }

if [ "$(pnpm --version 2>/dev/null || true)" != "$PNPM_VERSION" ]; then
  echo "setup: installing pnpm@$PNPM_VERSION"
  npm install -g --silent --no-fund --no-audit "pnpm@$PNPM_VERSION" >/dev/null 2>&1 ||
    fail "could not install pnpm. Install it yourself: npm install -g pnpm@$PNPM_VERSION (needs root, or an npm prefix you own)"
  hash -r
  [ "$(pnpm --version 2>/dev/null || true)" = "$PNPM_VERSION" ] || fail "pnpm@$PNPM_VERSION is installed but not first on PATH"
fi

# Reinstall only when the lockfile changed since the last install.
lock_hash=$(sha256sum pnpm-lock.yaml | cut -d' ' -f1)
stamp=node_modules/.eddy-lock-hash
if [ "$(cat "$stamp" 2>/dev/null || true)" != "$lock_hash" ]; then
  echo "setup: installing dependencies from pnpm-lock.yaml"
  pnpm install --frozen-lockfile --prefer-offline --reporter=append-only || fail "pnpm install --frozen-lockfile failed"
  echo "$lock_hash" > "$stamp"
fi

if [ "${1:-}" = --chromium ] && [ ! -x "$CHROMIUM" ]; then
  # apt-get installs /usr/bin/chromium: it cannot fix a CHROMIUM_PATH that points somewhere else.
  if [ -z "${CHROMIUM_PATH:-}" ] && is_root && command -v apt-get >/dev/null; then
    echo "setup: installing Chromium with apt-get (about 30 s)"
    export DEBIAN_FRONTEND=noninteractive
    timeout 300 apt-get update -qq </dev/null >/dev/null &&
      timeout 600 apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core </dev/null >/dev/null ||
      fail "apt-get could not install chromium"
  else
    fail "Chromium not found at $CHROMIUM. The browser and e2e tests need it. Install it as root:
  apt-get update && apt-get install -y --no-install-recommends chromium fonts-dejavu-core
or point CHROMIUM_PATH at a Chromium binary. (Do not run 'playwright install': eddy uses the system Chromium.)"
  fi
  [ -x "$CHROMIUM" ] || fail "Chromium is still missing at $CHROMIUM after apt-get"
fi
