#!/usr/bin/env bash
# End-to-end tests: installs n8n (the current 2.x and the last 1.x, both on
# Node 24) and a Learning Record Store into a cache folder outside the
# repository (once; later runs reuse them), builds the package, then runs the
# *.e2e.test.ts suites with jest once per n8n major: 2.x first, then 1.x.
# Both runs happen even when the first fails; the script fails if either did.
#
#   bash test/e2e/run.sh                       # n8n 2.x, then n8n 1.x
#   LP_E2E_N8N_MAJOR=1 bash test/e2e/run.sh    # n8n 1.x only
#
# Extra arguments go to jest (e.g. a test name pattern with -t).
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo_root"

if [[ -n "${LP_E2E_N8N_MAJOR:-}" ]]; then
  majors=("$LP_E2E_N8N_MAJOR")
else
  majors=(2 1)
fi

n8n_version() {
  node -e 'process.stdout.write(require(process.argv[1])[process.argv[2]].version)' \
    "$repo_root/harness/n8n-versions.json" "$1"
}

bash scripts/install-n8n.sh "${majors[@]}"
bash scripts/install-lrs.sh

# LP_BUILT=1 (set by .ci/run, which builds once): use dist/ as it is.
if [[ -z "${LP_BUILT:-}" ]]; then
  echo "[e2e] building the package"
  npx --no-install n8n-node build
fi

summary=()
failed=0
for major in "${majors[@]}"; do
  version="$(n8n_version "$major")"
  echo "[e2e] running the end-to-end suites against n8n $version"
  started_at=$SECONDS
  if LP_E2E_N8N_MAJOR="$major" npx --no-install jest --config test/e2e/jest.e2e.config.js "$@"; then
    outcome=passed
  else
    outcome=FAILED
    failed=1
  fi
  summary+=("n8n $version: $outcome in $((SECONDS - started_at)) s")
done

echo "[e2e] summary"
for line in "${summary[@]}"; do
  echo "[e2e]   $line"
done
exit "$failed"
