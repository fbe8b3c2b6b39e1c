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
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

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

# Starts the store once as the tests do (harness/lrs.ts: in memory, on loopback, a free port,
# until it answers /xAPI/about), on the Node that runs the tests.
if ! (cd "$repo_root" && LP_E2E_CACHE="$CACHE" node_modules/.bin/tsx -e \
  "require('./harness/lrs').startLrs().then((lrs) => lrs.stop())"); then
  log "the record store did not start"
  exit 1
fi
log "the record store answers /xAPI/about on $(node --version)"
touch "$LRS_MARKER"
log "ready in $((SECONDS - started_at)) s: $LRS_DIR/node_modules/xapi-statements"
