#!/usr/bin/env bash
# Installs what the e2e tests (and `npm start`) need, skipping whatever is already there:
#   - Debian's chromium (the browser playwright-core drives);
#   - test/e2e/node_modules from test/e2e/package-lock.json (code-server 4.139.1, playwright-core),
#     its native modules built on Node 24, the Node code-server runs on.
# The tooling lives in test/e2e/ with its own lockfile so the extension's `npm ci` stays lean.
# A second run with nothing to do takes well under a second.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=./node24.sh
source scripts/node24.sh  # Node 24 first on PATH; npm_config_nodedir = its headers (not ~/.npmrc's Node 20)

missing=()
for pkg in chromium; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "e2e-setup: apt-get install ${missing[*]}" >&2
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

# `npm ci` deletes and rebuilds node_modules, so run it only when the lockfile changed since the
# last successful install or the install is incomplete.
#
# code-server's own postinstall (`npm install` in lib/vscode) compiles every native module VS Code's
# server lists, which took 15 of the 16.5 minutes of a first `npm start` on a fresh 2-core machine.
# The main job and the e2e suite (code-server with --auth none, no terminal, no proxy) load only
# some of them, so the install runs with scripts off and then builds just those:
#   built:   @vscode/spdlog (the server's and extension host's logs), @vscode/native-watchdog
#            (extension host), @vscode/deviceid, @vscode/fs-copyfile, @parcel/watcher (file
#            watching: a prebuilt package, its install only links it);
#   skipped: @vscode/sqlite3 (only VS Code's agent host loads it), kerberos (proxy Kerberos
#            authentication), node-pty (the integrated terminal), @vscode/windows-* (Windows).
#            argon2 (password hashing, unused with --auth none) loads from its own prebuilds.
# A terminal opened in code-server started this way reports that node-pty is missing.
NATIVE_MODULES=(@parcel/watcher @vscode/spdlog @vscode/native-watchdog @vscode/deviceid @vscode/fs-copyfile)
install_tooling() {
  set -e
  echo "== downloading code-server and playwright-core"
  (cd test/e2e && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --ignore-scripts)
  local vscode=test/e2e/node_modules/code-server/lib/vscode
  echo "== downloading VS Code's server dependencies"
  (cd "$vscode" && npm install --omit=dev --ignore-scripts --no-audit --no-fund)
  echo "== building ${#NATIVE_MODULES[@]} native modules"
  (cd "$vscode" && npm rebuild "${NATIVE_MODULES[@]}" --foreground-scripts)
  # What code-server's postinstall does besides: the remote CLI's and browser helper's links, and the
  # built-in extensions' shared dependencies.
  ln -sfn code-linux.sh "$vscode/bin/remote-cli/code-server"
  ln -sfn browser-linux.sh "$vscode/bin/helpers/browser.sh"
  echo "== installing the built-in extensions' dependencies"
  (cd "$vscode/extensions" && npm install --omit=dev --no-audit --no-fund)
}
stamp=test/e2e/node_modules/.ratchet-e2e-lock.sha256
# The recipe's number changes when install_tooling does: an install made the old way is redone.
RECIPE=2
want="$(sha256sum test/e2e/package-lock.json | cut -d' ' -f1) $(node --version) recipe $RECIPE"
if [ ! -f test/e2e/node_modules/code-server/out/node/entry.js ] || [ ! -f test/e2e/node_modules/playwright-core/package.json ] \
   || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  echo "e2e-setup: installing code-server and the native modules the main job needs (under 4 minutes on 2 cores: see README)…" >&2
  # --foreground-scripts puts the native builds' compiler output in the log, which is what one needs
  # when a build fails; it is thousands of lines, so it goes to a file and only its tail is shown.
  # Meanwhile a line every 15 s says how long it has taken and what it is doing (the last "== step"
  # or "> package@version install" the log shows), so a long build is seen to be moving.
  log=.tools/e2e-npm-ci.log
  mkdir -p .tools
  started=$SECONDS
  install_tooling >"$log" 2>&1 &
  npm_pid=$!
  while kill -0 "$npm_pid" 2>/dev/null; do
    for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do kill -0 "$npm_pid" 2>/dev/null && sleep 1; done
    kill -0 "$npm_pid" 2>/dev/null || break
    step=$(grep -E '^(== .*|> [^ ]+ (install|postinstall))$' "$log" | tail -n 1 | sed -E 's/^== //; s/^> ([^ ]+) (install|postinstall)$/building \1 (\2 script)/' || true)
    elapsed=$((SECONDS - started))
    printf 'e2e-setup: %dm%02ds — %s\n' $((elapsed / 60)) $((elapsed % 60)) "${step:-starting}" >&2
  done
  if ! wait "$npm_pid"; then
    tail -n 60 "$log" >&2
    echo "e2e-setup: installing test/e2e failed; full log: $log" >&2
    exit 1
  fi
  elapsed=$((SECONDS - started))
  printf 'e2e-setup: test/e2e installed in %dm%02ds (log: %s)\n' $((elapsed / 60)) $((elapsed % 60)) "$log" >&2
  echo "$want" > "$stamp"
fi
