#!/usr/bin/env bash
# The core install's own tests (.ci/run): the wheel alone (no extras) in a fresh Python 3.13
# virtualenv, then tests/core/ and every test module marked `core` (scoring, io, comparison,
# the command line) against the installed package, not the source tree.
#   scripts/core_tests.sh [PYTEST ARGS]       build, install, test (a temporary folder)
#   scripts/core_tests.sh --install-only DIR  build and install into DIR/venv, test nothing
#                                             (.ci/run does this beside the main test run)
#   MSBENCH_CORE_VENV=DIR/venv scripts/core_tests.sh   test in that installed virtualenv
#   MSBENCH_CORE_PYTHON  the interpreter (default: python3.13 on PATH, else pyenv's 3.13)
set -euo pipefail
cd "$(dirname "$0")/.."
install() {  # install DIR: the wheel of this tree, alone, in DIR/venv
  local python= candidate
  for candidate in ${MSBENCH_CORE_PYTHON:-} python3.13 "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.13*/bin/python3.13; do
    if "$candidate" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 13))' >/dev/null 2>&1; then
      python=$candidate
      break
    fi
  done
  if [ -z "$python" ]; then
    echo "[core] no Python 3.13 found: set MSBENCH_CORE_PYTHON to one" >&2
    exit 1
  fi
  echo "[core] building the wheel, installing it alone in a Python 3.13 virtualenv"
  "$python" -m venv "$1/venv"
  "$1/venv/bin/pip" wheel --quiet --disable-pip-version-check --no-deps -w "$1/dist" . 2>&1 \
    | grep -v "is ignored" || true
  "$1/venv/bin/pip" install --quiet --disable-pip-version-check "$1"/dist/msbench_toolkit-*.whl \
    'pytest>=8,<9.2' 'pytest-xdist>=3.6,<4' 2>&1 | grep -v "is ignored" || true
  "$1/venv/bin/python" -c 'import msbench' || { echo "[core] the wheel did not install" >&2; exit 1; }
  echo "[core] $(du -sm "$1/venv" | cut -f1) MB installed"
}
if [ "${1:-}" = "--install-only" ]; then
  install "$2"
  exit 0
fi
venv=${MSBENCH_CORE_VENV:-}
if [ -z "$venv" ]; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  install "$work"
  venv=$work/venv
fi
echo "[core] running the core tests in $venv"
mapfile -t modules < <(grep -l '^pytestmark = pytest.mark.core' -r tests --include='*.py' | sort)
# from the repository root, so that ../shared and the demo are where the tests look; the
# package comes from the virtualenv (src/ is not on the path), no doctests (they read src/)
# on both cores (MSBENCH_TEST_WORKERS, as command 2)
"$venv/bin/python" -m pytest -q -p no:cacheprovider -o addopts="" -m "not extras" \
  -n "${MSBENCH_TEST_WORKERS:-2}" tests/core "${modules[@]}" "$@"
