#!/usr/bin/env bash
# Installs a real Learning Record Store for the end-to-end tests:
# xapi-statements (Learning Locker's statement service), which runs in memory
# on loopback with no database. It declares an old Node engine and pulls old
# dependencies, so it gets its own folder in the cache, outside the repository.
# Idempotent: the marker file is written only when the install succeeded.
set -euo pipefail

CACHE="${LP_E2E_CACHE:-$HOME/.cache/n8n-nodes-learning-platform}"
LRS_SPEC="xapi-statements@5.0.1"
LRS_DIR="$CACHE/lrs"
LRS_MARKER="$LRS_DIR/.installed"
# Makes the store bind 127.0.0.1 only and print the port it got.
LOOPBACK_PRELOAD="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/harness/loopbackListen.js"

started_at=$SECONDS
log() { echo "[install-lrs] $*"; }

if [[ -f "$LRS_MARKER" ]]; then
  log "$LRS_SPEC already installed in $LRS_DIR"
  exit 0
fi

log "installing $LRS_SPEC into $LRS_DIR"
rm -rf "$LRS_DIR"
mkdir -p "$LRS_DIR"
cat >"$LRS_DIR/package.json" <<JSON
{
  "name": "lrs-e2e-host",
  "private": true,
  "dependencies": { "xapi-statements": "${LRS_SPEC#xapi-statements@}" }
}
JSON
# The cache lives outside the repository, so the project's .npmrc does not
# apply: pass every npm setting explicitly. Install scripts are not needed (the
# package ships its compiled dist/).
(cd "$LRS_DIR" && npm install --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error)

# Starts the store once, as the tests do (in memory, loopback, a free port),
# and asks it for /xAPI/about, on the Node that runs the tests.
check_lrs_starts() {
  local work_dir store_pid port="" answered=false
  work_dir="$(mktemp -d)"
  (
    cd "$work_dir"
    AUTH_REPO=test EVENTS_REPO=test MODELS_REPO=memory STORAGE_REPO=local EXPRESS_PORT=0 \
      exec node --require "$LOOPBACK_PRELOAD" "$LRS_DIR/node_modules/xapi-statements/dist/index.js"
  ) >"$work_dir/store.log" 2>&1 &
  store_pid=$!
  for _ in $(seq 300); do
    port="$(sed -n 's/^LOOPBACK_LISTENING {"port":\([0-9]*\)}$/\1/p' "$work_dir/store.log")"
    [[ -n "$port" ]] && break
    kill -0 "$store_pid" 2>/dev/null || break
    sleep 0.1
  done
  if [[ -n "$port" ]] && node -e "
    fetch('http://127.0.0.1:$port/xAPI/about', { headers: { 'X-Experience-API-Version': '1.0.3' } })
      .then((response) => process.exit(response.ok ? 0 : 1), () => process.exit(1));"; then
    answered=true
  fi
  kill "$store_pid" 2>/dev/null || true
  wait "$store_pid" 2>/dev/null || true
  if [[ "$answered" != true ]]; then
    tail -n 40 "$work_dir/store.log"
    rm -rf "$work_dir"
    log "the record store did not start"
    exit 1
  fi
  rm -rf "$work_dir"
  log "the record store answers /xAPI/about on $(node --version)"
}

check_lrs_starts
touch "$LRS_MARKER"
log "ready in $((SECONDS - started_at)) s: $LRS_DIR/node_modules/xapi-statements"
