#!/usr/bin/env bash
# Installs what the queue-mode benchmark (npm run bench:queue) runs n8n on:
# Redis (Debian's redis-server) and Postgres (Debian's postgresql). The
# benchmark starts its own throw-away instances of both on loopback; the
# packages' own services are not used. Idempotent: nothing is installed
# when both programs are already there.
set -euo pipefail

log() { echo "[install-queue-deps] $*"; }

have_redis() { command -v redis-server >/dev/null 2>&1; }
# Debian keeps initdb and pg_ctl under /usr/lib/postgresql/<major>/bin.
have_postgres() {
  command -v initdb >/dev/null 2>&1 || compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null
}

if have_redis && have_postgres; then
  log "redis-server and postgresql already installed"
  exit 0
fi

missing=()
have_redis || missing+=(redis-server)
have_postgres || missing+=(postgresql)

SUDO=()
[[ $(id -u) -eq 0 ]] || SUDO=(sudo)

log "installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" apt-get update
"${SUDO[@]}" apt-get install -y --no-install-recommends "${missing[@]}"

# The packages start system-wide services where an init system runs them;
# the benchmark does not need them.
for service in redis-server postgresql; do
  if command -v systemctl >/dev/null 2>&1 && systemctl is-active --quiet "$service" 2>/dev/null; then
    "${SUDO[@]}" systemctl stop "$service" || true
  fi
done

have_redis || { log "redis-server is still missing"; exit 1; }
have_postgres || { log "postgresql is still missing"; exit 1; }
log "done: $(redis-server --version | head -1)"
