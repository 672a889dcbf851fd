#!/usr/bin/env bash
# Install Debian packages for a test dependency, once: apt_install.sh LABEL "COMMANDS" PACKAGE...
# Does nothing when every command in COMMANDS is on the PATH; needs root (or sudo); without
# apt-get or root it says what to install and exits 0 (the tests that need it say so too).
set -euo pipefail
label=$1 commands=$2
shift 2
missing=0
for command in $commands; do command -v "$command" >/dev/null || missing=1; done
[ "$missing" = 0 ] && exit 0
if ! command -v apt-get >/dev/null; then
  echo "[$label] no apt-get: install $* with your package manager${APT_HINT:+ ($APT_HINT)}" >&2
  exit 0
fi
sudo=""
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then sudo=sudo; else
    echo "[$label] $* missing and no root: run 'sudo apt-get install $*'" >&2
    exit 0
  fi
fi
echo "[$label] installing $* (apt)"
$sudo apt-get update -qq >/dev/null
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null
