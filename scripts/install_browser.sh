#!/usr/bin/env bash
# The real browser of the review page tests: Debian's chromium and chromium-driver (apt).
# Idempotent; needs root (or sudo). Elsewhere, install Chromium and its chromedriver and set
# MSBENCH_CHROMIUM / MSBENCH_CHROMEDRIVER to their paths.
set -euo pipefail
APT_HINT="then set MSBENCH_CHROMIUM and MSBENCH_CHROMEDRIVER" \
  exec "$(dirname "$0")/apt_install.sh" browser "chromium chromedriver" chromium chromium-driver
