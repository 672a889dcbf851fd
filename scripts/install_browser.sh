#!/usr/bin/env bash
# The real browser of the review page tests: Debian's chromium and chromium-driver (apt).
# Idempotent; needs root (or sudo). Elsewhere, install Chromium and its chromedriver and set
# MSBENCH_CHROMIUM / MSBENCH_CHROMEDRIVER to their paths.
set -euo pipefail
if command -v chromium >/dev/null && command -v chromedriver >/dev/null; then
  exit 0
fi
if ! command -v apt-get >/dev/null; then
  echo "[browser] no apt-get: install Chromium and chromedriver, set MSBENCH_CHROMIUM and MSBENCH_CHROMEDRIVER" >&2
  exit 0
fi
sudo=""
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then sudo=sudo; else
    echo "[browser] chromium missing and no root: run 'sudo apt-get install chromium chromium-driver'" >&2
    exit 0
  fi
fi
echo "[browser] installing chromium and chromium-driver (apt, about a minute)"
$sudo apt-get update -qq >/dev/null
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium chromium-driver >/dev/null
