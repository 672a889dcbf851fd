#!/usr/bin/env bash
# The GPU route on a cluster node with CUDA 12: after scripts/bootstrap.sh, swap the CPU builds of
# torch and onnxruntime in .venv for CUDA ones (README: On a GPU node). Needs the CUDA wheel index
# (or a local mirror: MSBENCH_TORCH_INDEX=...).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
index=${MSBENCH_TORCH_INDEX:-https://download.pytorch.org/whl/cu128}
.venv/bin/pip install --quiet --force-reinstall --index-url "$index" 'torch==2.13.0'
.venv/bin/pip uninstall --quiet -y onnxruntime
.venv/bin/pip install --quiet 'onnxruntime-gpu>=1.18,<2'
.venv/bin/python - <<'PY'
import onnxruntime, torch
print("[gpu] torch", torch.__version__, "CUDA visible:", torch.cuda.is_available())
print("[gpu] onnxruntime providers:", onnxruntime.get_available_providers())
PY
