#!/usr/bin/env bash
# `npm run check` while two CPU-bound processes run (stress-ng --cpu 2): the suite must pass on a busy machine, not only
# on an idle one. Prints how long it took; exits with check's status. Installs stress-ng with apt when root and missing.
# With test files as arguments (`npm run check:load -- tests/cli-shape.test.ts …`) it builds and runs only those,
# for a quick look on a machine that others share; the figure it prints then says so.
set -uo pipefail
cd "$(dirname "$0")/.."

if ! command -v stress-ng >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq stress-ng) >/dev/null 2>&1
  fi
  command -v stress-ng >/dev/null 2>&1 || {
    echo "check-under-load: stress-ng is missing; install it with: sudo apt-get install stress-ng (Debian/Ubuntu), sudo dnf install stress-ng (Fedora), brew install stress-ng (macOS)" >&2
    exit 2
  }
fi

hogs="${TUG_LOAD_CPUS:-2}"
# Its own process group, so the hogs (stress-ng forks one worker per CPU) all end with this script, however it ends.
setsid stress-ng --cpu "$hogs" --timeout 4h --quiet &
hog=$!
trap 'kill -- -"$hog" 2>/dev/null; wait "$hog" 2>/dev/null' EXIT INT TERM

started=$(date +%s)
if [ "$#" -gt 0 ]; then
  what="$# test file(s): $*"
  npm run build --silent && env -u NODE_EXTRA_CA_CERTS npx ava "$@"
else
  what="npm run check"
  npm run check
fi
status=$?
elapsed=$(( $(date +%s) - started ))
echo "check under load (stress-ng --cpu ${hogs}, ${what}): exit ${status} in ${elapsed} s ($(( elapsed / 60 )) min $(( elapsed % 60 )) s)"
exit "$status"
