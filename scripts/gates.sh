#!/usr/bin/env bash
# The CI gates (docs/development.md): lint, format, rule format, workflow lint, types, docs.
# Run inside the project's .venv (scripts/run_tests.sh calls this first). The gates are
# independent: they run beside each other, each one's output kept and shown when it fails.
set -euo pipefail
cd "$(dirname "$0")/.."
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
gate() {  # gate NAME COMMAND...: run in the background, output to its log
  local name=$1; shift
  ( set +e; "$@" >"$logs/$name.log" 2>&1; echo $? >"$logs/$name.rc" ) &
}
gate "ruff-check" ruff check src tests benchmarks scripts
gate "ruff-format" ruff format --check --quiet src tests benchmarks
gate "snakefmt" snakefmt --check Snakefile workflow/Snakefile workflow/rules/*.smk
gate "snakemake-lint" scripts/lint_workflow.sh  # the demo's config; one allowed finding
gate "mypy" mypy
gate "generated-docs" python scripts/gen_docs.py --check  # pages generated from the code
gate "mkdocs" env NO_MKDOCS_2_WARNING=1 mkdocs build --strict --quiet --site-dir "$logs/site"
wait
failed=0
for rc in "$logs"/*.rc; do
  name=$(basename "$rc" .rc)
  if [ "$(cat "$rc")" != 0 ]; then
    echo "[gates] $name FAILED:"; cat "$logs/$name.log"; failed=1
  else
    echo "[gates] $name passed"
  fi
done
[ "$failed" = 0 ] || { echo "[gates] a gate failed (above)"; exit 1; }
echo "[gates] all gates passed"
