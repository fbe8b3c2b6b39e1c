#!/usr/bin/env bash
# Installs Debian's headless-capable Chromium for the editor test (test/ui):
# playwright-core drives /usr/bin/chromium, it does not download a browser of
# its own. Idempotent: nothing is fetched when the browser already starts.
# Needs root (apt-get); set CHROMIUM_PATH to use another Chromium instead.
set -euo pipefail

CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
started_at=$SECONDS
log() { echo "[install-chromium] $*"; }

chromium_works() {
  [[ -x "$CHROMIUM" ]] && "$CHROMIUM" --headless --no-sandbox --disable-gpu --version >/dev/null 2>&1
}

if chromium_works; then
  log "$("$CHROMIUM" --version 2>/dev/null) already installed at $CHROMIUM"
  exit 0
fi

if [[ -n "${CHROMIUM_PATH:-}" ]]; then
  log "CHROMIUM_PATH=$CHROMIUM does not start"
  exit 1
fi

if [[ "$(id -u)" != 0 ]]; then
  log "chromium is missing and installing it needs root: run 'apt-get install chromium' as root"
  exit 1
fi

log "installing Debian's chromium with apt-get"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# fonts-liberation: readable text in screenshots (the default fonts lack Latin metrics).
apt-get install -y -qq --no-install-recommends chromium fonts-liberation >/dev/null

if ! chromium_works; then
  log "chromium was installed but does not start"
  exit 1
fi
log "$("$CHROMIUM" --version 2>/dev/null) ready in $((SECONDS - started_at)) s"
