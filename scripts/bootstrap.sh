#!/usr/bin/env bash
# Create .venv (Python 3.11) and install msbench with the workflow, model and test extras.
# Idempotent: reinstalls only when pyproject.toml is newer than the last install.
set -euo pipefail
cd "$(dirname "$0")/.."

python=${MSBENCH_PYTHON:-$(command -v python3.11 || command -v python3)}
if [ ! -x .venv/bin/python ]; then
  echo "[bootstrap] creating .venv with $($python --version)"
  "$python" -m venv .venv
fi
stamp=.venv/.msbench-installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  echo "[bootstrap] installing msbench and its dependencies into .venv (first time: several minutes)"
  # The CPU build of torch first, so that no range below pulls a multi-GB CUDA build.
  quiet_pip() { .venv/bin/pip install --quiet --disable-pip-version-check "$@" 2>&1 | { grep -v 'is ignored: it is neither' || true; }; }
  quiet_pip 'torch==2.13.0'
  quiet_pip -e '.[workflow,models,test]'
  .venv/bin/python -c 'import msbench, snakemake, torch' || { echo "[bootstrap] install failed" >&2; exit 1; }
  touch "$stamp"
fi
