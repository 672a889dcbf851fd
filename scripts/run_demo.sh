#!/usr/bin/env bash
# README command 1: set up .venv if needed, then run the whole workflow on the embedded demo corpus.
# Extra arguments go to snakemake (e.g. --dry-run, --forceall).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
export PATH="$PWD/.venv/bin:$PATH"
# the demo has its own config and sheet (resources/demo/); config/ is the MS-Bench rebuild
scripts/unlock_if_stale.sh --configfile resources/demo/config.yaml --replace-workflow-config
snakemake --cores "${MSBENCH_CORES:-$(nproc)}" --quiet rules --rerun-incomplete \
  --configfile resources/demo/config.yaml --replace-workflow-config "$@"
echo "[demo] run summary (results/manifests/run_summary.json):"
cat results/manifests/run_summary.json
echo "[demo] benchmark: $(($(wc -l < results/manifests/benchmark.csv) - 1)) recordings selected; manifests in results/manifests/:"
ls -1 results/manifests/
