#!/usr/bin/env bash
# Jobs a killed Snakemake controller left on SLURM for this folder, and how to cancel them.
# After the controller dies (a lost login node, a killed screen), its jobs keep running; a
# rerun would submit the same steps again beside them. Before resuming:
#   scripts/slurm_leftovers.sh            list this folder's queued and running jobs
#   scripts/slurm_leftovers.sh --cancel   scancel them, then: snakemake --unlock && snakemake --profile slurm
# (jobs are found by their working directory, %Z, which the executor plugin sets to this folder;
# each job's --comment names its rule and wildcards)
# When the cluster cannot be asked (no squeue, a controller that does not answer, a squeue that
# hangs past MSBENCH_SQUEUE_TIMEOUT seconds, 30 by default), it says so and exits 2: never "no
# job", which is exactly when resuming would submit the same steps twice.
set -euo pipefail
cd "$(dirname "$0")/.."
here=$(pwd -P)
limit=${MSBENCH_SQUEUE_TIMEOUT:-30}
cannot_ask() {
  echo "[slurm] could not ask the cluster which jobs are queued ($1): do not resume yet;" \
    "check that squeue answers on this machine (the controller up, this a login node), then rerun $0" >&2
  exit 2
}
command -v squeue >/dev/null 2>&1 || cannot_ask "squeue is not on PATH"
if listed=$(timeout "$limit" squeue -h -u "$(id -un)" -o "%i|%Z|%T|%k" 2>&1); then :; else
  status=$?
  [ "$status" -eq 124 ] && cannot_ask "squeue gave no answer within $limit s"
  cannot_ask "squeue failed with exit status $status: $(printf '%s' "$listed" | head -n 1)"
fi
mapfile -t jobs < <(printf '%s\n' "$listed" | awk -F'|' -v here="$here" 'NF && $2 == here')
if [ ${#jobs[@]} -eq 0 ]; then
  echo "[slurm] no job of $here is queued or running: resume with snakemake --unlock, then your run command"
  exit 0
fi
printf '%s\n' "${jobs[@]}" | awk -F'|' '{printf "  job %s  %-9s %s\n", $1, $3, $4}'
if [ "${1:-}" = "--cancel" ]; then
  ids=$(printf '%s\n' "${jobs[@]}" | cut -d'|' -f1 | tr '\n' ' ')
  if ! command -v scancel >/dev/null 2>&1; then
    echo "[slurm] NOT cancelled: scancel is not on PATH; the ${#jobs[@]} job(s) above still run." \
      "Cancel them where scancel is (a login node): scancel $ids; do not resume until they are gone" >&2
    exit 3
  fi
  if ! out=$(timeout "$limit" scancel $ids 2>&1); then
    echo "[slurm] NOT cancelled: scancel $ids failed: $(printf '%s' "$out" | head -n 1);" \
      "check with squeue, cancel by hand, and do not resume until they are gone" >&2
    exit 3
  fi
  echo "[slurm] cancelled ${#jobs[@]} job(s); now: snakemake --unlock, then your run command (--rerun-incomplete redoes their steps)"
else
  echo "[slurm] ${#jobs[@]} job(s) of this folder; cancel them with: $0 --cancel"
fi
