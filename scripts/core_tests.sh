#!/usr/bin/env bash
# The core install's own tests (.ci/run): the wheel alone (no extras) in a fresh Python 3.13
# virtualenv, then tests/core/ and every test module marked `core` (scoring, io, comparison,
# the command line) against the installed package, not the source tree.
#   MSBENCH_CORE_PYTHON  the interpreter (default: python3.13 on PATH, else pyenv's 3.13)
set -euo pipefail
cd "$(dirname "$0")/.."
python=
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
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "[core] building the wheel, installing it alone in a Python 3.13 virtualenv"
.venv/bin/pip wheel --quiet --disable-pip-version-check --no-deps -w "$work/dist" . 2>&1 | grep -v "is ignored" || true
"$python" -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet --disable-pip-version-check "$work"/dist/msbench_toolkit-*.whl 'pytest>=8,<10' 2>&1 \
  | grep -v "is ignored" || true
echo "[core] $(du -sm "$work/venv" | cut -f1) MB installed; running the core tests"
mapfile -t modules < <(grep -l '^pytestmark = pytest.mark.core' -r tests --include='*.py' | sort)
# from the repository root, so that ../shared and the demo are where the tests look; the
# package comes from the virtualenv (src/ is not on the path), no doctests (they read src/)
"$work/venv/bin/python" -m pytest -q -p no:cacheprovider -o addopts="" -m "not extras" \
  tests/core "${modules[@]}" "$@"
