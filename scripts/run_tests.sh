#!/usr/bin/env bash
# README command 2: set up .venv if needed, run the gates, then the whole test suite on both
# cores (pytest-xdist: -n 2, the tests of one shared workflow run or of the loaded models kept
# on one worker, tests/conftest.py). Extra arguments go to pytest: -m "not slow" is the inner
# loop (no whole-workflow runs, docs/development.md), -k adapters one area.
# MSBENCH_TEST_WORKERS sets the workers (default 2).
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS
scripts/bootstrap.sh
scripts/install_browser.sh  # the review page tests drive a real Chromium
scripts/install_espeak.sh   # the non-English tests synthesize their conversations
export PATH="$PWD/.venv/bin:$PATH"
echo "[tests] set-up done at $((SECONDS - started)) s"
scripts/gates.sh
echo "[tests] gates done at $((SECONDS - started)) s"
python -m pytest -q -n "${MSBENCH_TEST_WORKERS:-2}" --dist loadgroup --no-loadscope-reorder "$@"
