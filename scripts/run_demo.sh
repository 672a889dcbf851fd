#!/usr/bin/env bash
# README command 1: set up .venv if needed, then the whole loop on the embedded demo corpus:
# build the benchmark, cut its units, run the baseline, score it, diagnose it.
# Extra arguments go to snakemake (e.g. --dry-run, --forceall).
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)
scripts/bootstrap.sh
setup_done=$(date +%s)
export PATH="$PWD/.venv/bin:$PATH"
# the demo has its own config and sheet (resources/demo/); config/ is the MS-Bench rebuild
scripts/unlock_if_stale.sh --configfile resources/demo/config.yaml --replace-workflow-config
snakemake --cores "${MSBENCH_CORES:-$(nproc)}" --quiet rules --rerun-incomplete \
  --configfile resources/demo/config.yaml --replace-workflow-config "$@"
echo "[demo] run summary (results/manifests/run_summary.json):"
cat results/manifests/run_summary.json
echo "[demo] benchmark: $(($(wc -l < results/manifests/benchmark.csv) - 1)) recordings selected; manifests in results/manifests/:"
ls -1 results/manifests/
echo "[demo] leaderboard (results/evaluation/leaderboard.md, rates in percent):"
cat results/evaluation/leaderboard.md
if [ -f results/evaluation/compare/compare.md ]; then
  echo "[demo] which system is better (results/evaluation/compare/compare.md; B - A on the units both scored):"
  sed -n '/^## /,/^By condition/p' results/evaluation/compare/compare.md | sed '$d'
fi
echo "[demo] condition analyses, Table 2 (results/evaluation/table2.md; * = 95 % interval excludes 0):"
cat results/evaluation/table2.md
echo "[demo] tables and figures:"
ls -1 results/evaluation/*.md results/evaluation/*.csv results/evaluation/*.png results/evaluation/*.json \
  results/evaluation/compare/* 2>/dev/null
echo "[demo] probes (results/probes/probe_summary.json):"
python -c "import json; s = json.load(open(\"results/probes/probe_summary.json\")); print({k: s[k] for k in (\"items\", \"clips\", \"by_family\", \"by_overlap\", \"text_only_solvable\")})"
echo "[demo] review site: open results/review/index.html (no server needed)"
finished=$(date +%s)
echo "[demo] set-up $((setup_done - started)) s, workflow $((finished - setup_done)) s"
echo "[demo] commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
