#!/usr/bin/env bash
# The CI gates (docs/development.md): lint, format, rule format, workflow lint, types, docs.
# Run inside the project's .venv (scripts/run_tests.sh calls this first).
set -euo pipefail
cd "$(dirname "$0")/.."
step() { echo "[gates] $*"; }

step "ruff check"
ruff check src tests benchmarks
step "ruff format --check"
ruff format --check --quiet src tests benchmarks
step "snakefmt --check"
snakefmt --check Snakefile workflow/rules/*.smk
step "snakemake --lint (only the per-rule conda lint is allowed: the rules run msbench's own .venv)"
lint=$(snakemake --lint 2>&1 || true)
other=$(printf '%s\n' "$lint" | grep -E '^\s+\* ' | grep -v 'Specify a conda environment or container for each rule' || true)
if [ -n "$other" ]; then
  printf '%s\n' "$lint"
  echo "[gates] snakemake --lint found more than the allowed conda lint:" >&2
  printf '%s\n' "$other" >&2
  exit 1
fi
step "mypy"
mypy
step "generated documentation pages are current (python scripts/gen_docs.py rewrites them)"
python scripts/gen_docs.py --check
step "mkdocs build --strict (a broken link or a missing page fails)"
NO_MKDOCS_2_WARNING=1 mkdocs build --strict --quiet --site-dir "$(mktemp -d)"
step "all gates passed"
