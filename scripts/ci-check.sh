#!/usr/bin/env bash
# The GitHub Action's step (action.yml), and what any CI shell can run: `ratchet check` on this
# pull request, its Markdown report kept, and — when a token and a pull-request number are known —
# posted as a PR comment through `gh` (the last one edited, not a new one per push).
# Exit status: ratchet's own (0 pass, 1 the policy failed, 2 the check could not run).
#
# Environment (each optional):
#   RATCHET          the command that runs Ratchet, e.g. "npx ratchet" (default: node <this checkout>/bin/ratchet.js)
#   RATCHET_REQUIRE  better | not-worse (default not-worse): the policy of files whose run spec sets no check.require
#   RATCHET_BASE     the base ref (default: origin/$GITHUB_BASE_REF in a pull request, else the merge base)
#   RATCHET_ARGS     more flags for ratchet check, e.g. "--calls 300 --replay"
#   RATCHET_REPORT   where the Markdown report goes (default: $RUNNER_TEMP or /tmp, ratchet-check.md)
#   GH_TOKEN         a token that may comment on the pull request; without it nothing is posted
#   RATCHET_PR       the pull request's number (default: read from $GITHUB_EVENT_PATH)
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [[ -n "${RATCHET:-}" ]]; then
  # shellcheck disable=SC2206 # a command line given as one string, e.g. "npx ratchet".
  ratchet=(${RATCHET})
else
  ratchet=(node "$here/bin/ratchet.js")
fi
require="${RATCHET_REQUIRE:-not-worse}"
report="${RATCHET_REPORT:-${RUNNER_TEMP:-/tmp}/ratchet-check.md}"
base="${RATCHET_BASE:-}"
if [[ -z "$base" && -n "${GITHUB_BASE_REF:-}" ]]; then base="origin/$GITHUB_BASE_REF"; fi

args=(check --require "$require" --markdown "$report")
if [[ -n "$base" ]]; then args+=(--base "$base"); fi
# shellcheck disable=SC2206 # RATCHET_ARGS is a list of flags, split on spaces on purpose.
extra=(${RATCHET_ARGS:-})

# Ratchet writes the report to --markdown and appends it to $GITHUB_STEP_SUMMARY itself.
"${ratchet[@]}" "${args[@]}" "${extra[@]}"
status=$?

pr="${RATCHET_PR:-}"
if [[ -z "$pr" && -n "${GITHUB_EVENT_PATH:-}" && -f "${GITHUB_EVENT_PATH}" ]]; then
  pr="$(node -e 'const e = require(process.argv[1]); process.stdout.write(String(e.pull_request?.number ?? ""))' "$GITHUB_EVENT_PATH" 2>/dev/null || true)"
fi
if [[ -n "${GH_TOKEN:-}" && -n "$pr" && -s "$report" ]]; then
  gh pr comment "$pr" --body-file "$report" --edit-last 2>/dev/null || gh pr comment "$pr" --body-file "$report" || echo "ratchet check: could not comment on pull request $pr (the report is in $report)" >&2
fi
exit "$status"
