#!/usr/bin/env bash
# Browser tests drive the system Chromium through Playwright (never a downloaded
# browser). Install Debian's package when it is missing and we may.
set -euo pipefail
if command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ]; then
  exit 0
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's chromium for the browser tests..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
else
  echo "The browser tests need Chromium at /usr/bin/chromium:" >&2
  echo "  sudo apt-get install -y chromium   (or set GPUSIM_SKIP_BROWSER=1 to skip them)" >&2
  [ "${GPUSIM_SKIP_BROWSER:-0}" = 1 ] || exit 1
fi
