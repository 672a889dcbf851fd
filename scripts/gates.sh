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
snakefmt --check Snakefile workflow/Snakefile workflow/rules/*.smk
step "snakemake --lint, with the demo's config (scripts/lint_workflow.sh: one allowed finding)"
scripts/lint_workflow.sh
step "mypy"
mypy
step "generated documentation pages are current (python scripts/gen_docs.py rewrites them)"
python scripts/gen_docs.py --check
step "mkdocs build --strict (a broken link or a missing page fails)"
NO_MKDOCS_2_WARNING=1 mkdocs build --strict --quiet --site-dir "$(mktemp -d)"
step "all gates passed"
