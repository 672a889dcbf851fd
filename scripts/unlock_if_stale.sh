#!/usr/bin/env bash
# Remove a stale Snakemake lock: one left by a killed run (SIGKILL, a lost node), detected as
# lock files under .snakemake/locks while no live Snakemake process works in this directory.
# Usage: scripts/unlock_if_stale.sh [snakemake arguments that name the config, e.g. --configfile F]
set -euo pipefail
cd "$(dirname "$0")/.."
shopt -s nullglob
locks=(.snakemake/locks/*)
[ ${#locks[@]} -eq 0 ] && exit 0
here=$(pwd -P)
export PATH="$PWD/.venv/bin:$PATH"
for pid in $(pgrep -f snakemake || true); do
  [ "$pid" = "$$" ] && continue
  if [ "$(readlink "/proc/$pid/cwd" 2>/dev/null || true)" = "$here" ]; then
    echo "[unlock] a Snakemake run (pid $pid) is live in $here: not unlocking" >&2
    exit 0
  fi
done
echo "[unlock] stale lock from a killed run found (${locks[*]}); unlocking" >&2
snakemake --unlock "$@" >/dev/null 2>&1
