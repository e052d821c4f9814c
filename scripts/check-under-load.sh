#!/usr/bin/env bash
# `npm run check` while two CPU-bound processes run (stress-ng --cpu 2): the suite must pass on a busy machine, not only
# on an idle one. Prints how long it took; exits with check's status. Installs stress-ng with apt when root and missing.
set -uo pipefail
cd "$(dirname "$0")/.."

if ! command -v stress-ng >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq stress-ng) >/dev/null 2>&1
  fi
  command -v stress-ng >/dev/null 2>&1 || { echo "check-under-load: stress-ng is missing (Debian: apt-get install stress-ng)" >&2; exit 2; }
fi

hogs="${TUG_LOAD_CPUS:-2}"
stress-ng --cpu "$hogs" --timeout 4h --quiet &
hog=$!
# The hogs end with this script, however it ends.
trap 'kill "$hog" 2>/dev/null; wait "$hog" 2>/dev/null' EXIT INT TERM

started=$(date +%s)
npm run check
status=$?
echo "check under load (stress-ng --cpu ${hogs}): exit ${status} in $(( $(date +%s) - started )) s"
exit "$status"
