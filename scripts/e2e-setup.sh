#!/usr/bin/env bash
# Installs what the e2e tests (and `npm start`) need, skipping whatever is already there:
#   - Debian packages: chromium (the browser playwright-core drives) and libkrb5-dev (code-server's
#     `kerberos` native module builds from source: its prebuilt binary cannot be downloaded here);
#   - test/e2e/node_modules from test/e2e/package-lock.json (code-server 4.139.1, playwright-core),
#     built on Node 24 because code-server's install script refuses any other major.
# The tooling lives in test/e2e/ with its own lockfile so the extension's `npm ci` stays lean.
# A second run with nothing to do takes well under a second.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=./node24.sh
source scripts/node24.sh  # Node 24 first on PATH; npm_config_nodedir = its headers (not ~/.npmrc's Node 20)

missing=()
for pkg in chromium libkrb5-dev; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "e2e-setup: apt-get install ${missing[*]}" >&2
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

# `npm ci` deletes and rebuilds node_modules (≈4 minutes for code-server), so run it only when the
# lockfile changed since the last successful install or the install is incomplete.
stamp=test/e2e/node_modules/.ratchet-e2e-lock.sha256
want="$(sha256sum test/e2e/package-lock.json | cut -d' ' -f1) $(node --version)"
if [ ! -f test/e2e/node_modules/code-server/out/node/entry.js ] || [ ! -f test/e2e/node_modules/playwright-core/package.json ] \
   || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  echo "e2e-setup: npm ci in test/e2e — code-server and the native modules VS Code's server uses (5–16 minutes on 2 cores: see README)…" >&2
  # PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: we use Debian's chromium, never a downloaded browser.
  # --foreground-scripts puts the native builds' compiler output in the log, which is what one needs
  # when a build fails; it is thousands of lines, so it goes to a file and only its tail is shown.
  # Meanwhile a line every 15 s says how long it has taken and which package it is building (the
  # last "> package@version install" the log shows), so a long build is seen to be moving.
  log=.tools/e2e-npm-ci.log
  mkdir -p .tools
  started=$SECONDS
  (cd test/e2e && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --foreground-scripts) >"$log" 2>&1 &
  npm_pid=$!
  while kill -0 "$npm_pid" 2>/dev/null; do
    for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do kill -0 "$npm_pid" 2>/dev/null && sleep 1; done
    kill -0 "$npm_pid" 2>/dev/null || break
    step=$(grep -E '^> [^ ]+ (install|postinstall)$' "$log" | tail -n 1 | sed -E 's/^> ([^ ]+) (install|postinstall)$/\1 (\2 script)/' || true)
    elapsed=$((SECONDS - started))
    printf 'e2e-setup: %dm%02ds — %s\n' $((elapsed / 60)) $((elapsed % 60)) "${step:-downloading packages}" >&2
  done
  if ! wait "$npm_pid"; then
    tail -n 60 "$log" >&2
    echo "e2e-setup: npm ci in test/e2e failed; full log: $log" >&2
    exit 1
  fi
  elapsed=$((SECONDS - started))
  printf 'e2e-setup: test/e2e installed in %dm%02ds (log: %s)\n' $((elapsed / 60)) $((elapsed % 60)) "$log" >&2
  echo "$want" > "$stamp"
fi
