#!/usr/bin/env bash
# The editor test in a real browser: installs Debian's Chromium (apt-get, once)
# and n8n 2.x on Node 24 (into the cache folder, once), builds the package, then
# runs test/ui/*.ui.spec.ts with jest. The README's screenshots are written to
# docs/ on the way.
#
#   bash test/ui/run.sh            # what `npm run test:ui` runs
#   bash test/ui/run.sh -t picker  # extra arguments go to jest
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo_root"

started_at=$SECONDS
bash scripts/install-chromium.sh
bash scripts/install-n8n.sh 2

# LP_BUILT=1 (set by .ci/run, which builds once): use dist/ as it is.
if [[ -z "${LP_BUILT:-}" ]]; then
  echo "[ui] building the package"
  npx --no-install n8n-node build
fi

echo "[ui] running the editor test"
status=0
LP_E2E_N8N_MAJOR=2 npx --no-install jest --config test/ui/jest.ui.config.js "$@" || status=$?
echo "[ui] done in $((SECONDS - started_at)) s"
exit "$status"
