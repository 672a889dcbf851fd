#!/usr/bin/env bash
# README command 2: set up .venv if needed, then run the whole test suite.
# Extra arguments go to pytest (e.g. -k adapters, -m "not slow").
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
scripts/install_browser.sh  # the review page tests drive a real Chromium
scripts/install_espeak.sh   # the non-English tests synthesize their conversations
export PATH="$PWD/.venv/bin:$PATH"
scripts/gates.sh
python -m pytest -q "$@"
