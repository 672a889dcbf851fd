#!/usr/bin/env bash
# espeak-ng (Debian), which synthesizes the non-English test conversations (Mandarin, Japanese,
# Portuguese, Thai) of tests/models/test_languages.py. Idempotent; needs root (or sudo).
# Elsewhere, install espeak-ng with your package manager; without it those tests fail in CI
# and skip on a developer machine.
set -euo pipefail
if command -v espeak-ng >/dev/null; then
  exit 0
fi
if ! command -v apt-get >/dev/null; then
  echo "[espeak] no apt-get: install espeak-ng with your package manager" >&2
  exit 0
fi
sudo=""
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then sudo=sudo; else
    echo "[espeak] espeak-ng missing and no root: run 'sudo apt-get install espeak-ng'" >&2
    exit 0
  fi
fi
echo "[espeak] installing espeak-ng (apt)"
$sudo apt-get update -qq >/dev/null
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq espeak-ng >/dev/null
