#!/usr/bin/env bash
# espeak-ng (Debian), which synthesizes the non-English test conversations (Mandarin, Japanese,
# Portuguese, Thai, Italian, Spanish) of tests/models/test_languages.py. Idempotent; needs root
# (or sudo). Elsewhere, install espeak-ng with your package manager; without it those tests
# fail in CI and skip on a developer machine.
set -euo pipefail
exec "$(dirname "$0")/apt_install.sh" espeak espeak-ng espeak-ng
