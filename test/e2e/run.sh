#!/usr/bin/env bash
# End-to-end tests: installs n8n 2.x (on Node 24) and a Learning Record Store
# into a cache folder outside the repository (once; later runs reuse them),
# builds the package, then runs the *.e2e.test.ts suites with jest.
# Extra arguments go to jest (e.g. a test name pattern with -t).
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo_root"

bash scripts/install-n8n.sh
bash scripts/install-lrs.sh

echo "[e2e] building the package"
npx --no-install n8n-node build

echo "[e2e] running the end-to-end suites"
npx --no-install jest --config test/e2e/jest.e2e.config.js "$@"
