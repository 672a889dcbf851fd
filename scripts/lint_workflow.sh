#!/usr/bin/env bash
# The workflow lint gate: `snakemake --lint` with a configuration that loads (the demo's: the
# rebuild's config/ needs corpora that a checkout does not have), failing when Snakemake could
# not lint at all, and on every finding except those in ALLOWED below.
#   scripts/lint_workflow.sh            # from the repository, inside the project's .venv
set -euo pipefail
cd "$(dirname "$0")/.."

# The one allowed finding, and why (docs/development.md, "The lint gate"): the rules run
# msbench's own environment (the installed package and its pinned dependencies), not a conda
# environment per rule; a cluster user points every job at it (envs/README.md).
ALLOWED='Specify a conda environment or container for each rule.'

lint=$(snakemake --lint --configfile resources/demo/config.yaml --replace-workflow-config 2>&1) || true
if ! grep -q "^Lints for " <<<"$lint"; then
  printf '%s\n' "$lint"
  echo "[lint] snakemake could not lint the workflow (no 'Lints for' section above): fix the error it names" >&2
  exit 1
fi
findings=$(grep -E '^\s+\* ' <<<"$lint" | grep -vF "* $ALLOWED" || true)
if [ -n "$findings" ]; then
  printf '%s\n' "$lint"
  echo "[lint] snakemake --lint found more than the allowed finding ('$ALLOWED'):" >&2
  printf '%s\n' "$findings" >&2
  exit 1
fi
echo "[lint] $(grep -cF "* $ALLOWED" <<<"$lint") rules without a conda environment (allowed), no other finding"
