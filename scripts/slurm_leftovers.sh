#!/usr/bin/env bash
# Jobs a killed Snakemake controller left on SLURM for this folder, and how to cancel them.
# After the controller dies (a lost login node, a killed screen), its jobs keep running; a
# rerun would submit the same steps again beside them. Before resuming:
#   scripts/slurm_leftovers.sh            list this folder's queued and running jobs
#   scripts/slurm_leftovers.sh --cancel   scancel them, then: snakemake --unlock && snakemake --profile slurm
# (jobs are found by their working directory, %Z, which the executor plugin sets to this folder;
# each job's --comment names its rule and wildcards)
set -euo pipefail
cd "$(dirname "$0")/.."
here=$(pwd -P)
mapfile -t jobs < <(squeue -h -u "$(id -un)" -o "%i|%Z|%T|%k" | awk -F'|' -v here="$here" '$2 == here')
if [ ${#jobs[@]} -eq 0 ]; then
  echo "[slurm] no job of $here is queued or running: resume with snakemake --unlock, then your run command"
  exit 0
fi
printf '%s\n' "${jobs[@]}" | awk -F'|' '{printf "  job %s  %-9s %s\n", $1, $3, $4}'
if [ "${1:-}" = "--cancel" ]; then
  printf '%s\n' "${jobs[@]}" | cut -d'|' -f1 | xargs scancel
  echo "[slurm] cancelled ${#jobs[@]} job(s); now: snakemake --unlock, then your run command (--rerun-incomplete redoes their steps)"
else
  echo "[slurm] ${#jobs[@]} job(s) of this folder; cancel them with: $0 --cancel"
fi
