#!/usr/bin/env bash
# The system packages the test suite needs, and only those, from Debian's
# apt-get (as root, or through sudo). Each is named before anything is
# installed, and nothing is installed that is already there:
#
#   bubblewrap          the box a workspace not trusted runs in (contained.test.ts)
#   clangd              the C and C++ server
#   zsh fish            the completion tests drive the real shells
#   qemu-user libc6-arm64-cross   the arm64 release binary is run under qemu
#
#   bash scripts/install-system.sh      # then: npm test
#
# npm test itself installs into the project's .tools and the user's cache
# only; it stops naming this script when one of these is missing.
set -euo pipefail

# package: the command (or file) that says it is installed
declare -A PROBE=(
  [bubblewrap]=bwrap
  [clangd]=clangd
  [zsh]=zsh
  [fish]=fish
  [qemu-user]=qemu-aarch64
  [libc6-arm64-cross]=/usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1
)
ORDER=(bubblewrap clangd zsh fish qemu-user libc6-arm64-cross)

present() { case "$1" in /*) [ -e "$1" ] ;; *) command -v "$1" >/dev/null 2>&1 ;; esac; }
missing=()
for pkg in "${ORDER[@]}"; do present "${PROBE[$pkg]}" || missing+=("$pkg"); done
if [ "${#missing[@]}" -eq 0 ]; then
  echo "[install-system] ${ORDER[*]}: all installed"
  exit 0
fi
command -v apt-get >/dev/null 2>&1 || {
  echo "[install-system] missing: ${missing[*]}; this machine has no apt-get: install them with its own package manager" >&2
  exit 1
}
if [ "$(id -u)" -eq 0 ]; then as_root=(env); elif command -v sudo >/dev/null 2>&1; then as_root=(sudo env); else
  echo "[install-system] missing: ${missing[*]}; run this script as root (or install sudo)" >&2
  exit 1
fi
echo "[install-system] installing with apt-get (after apt-get update): ${missing[*]}"
"${as_root[@]}" DEBIAN_FRONTEND=noninteractive apt-get update -qq
"${as_root[@]}" DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
for pkg in "${missing[@]}"; do
  present "${PROBE[$pkg]}" || { echo "[install-system] apt-get installed $pkg but ${PROBE[$pkg]} is not there" >&2; exit 1; }
done
echo "[install-system] installed: ${missing[*]}"
