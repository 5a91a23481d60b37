#!/usr/bin/env bash
# Installs what Murmur needs on a fresh Debian machine: Node 24 when the machine's Node is older
# than 22, Debian packages, and the npm dependencies. `--test` adds what the test suite needs.
set -euo pipefail
cd "$(dirname "$0")/.."

with_test=false
for arg in "$@"; do
  case "$arg" in
    --test) with_test=true ;;
    *) echo "unknown option: $arg" >&2; exit 2 ;;
  esac
done

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }
if [ "$(node_major)" -lt 22 ]; then
  echo "Node $(node -v 2>/dev/null || echo none) is too old: installing Node 24 LTS from npm…"
  as_root npm install -g --force node@24 >/dev/null
  hash -r
fi
echo "Node $(node -v)"

apt_packages=()
# Speech: ffmpeg normalises recordings; pocketsphinx with its US English model is the embedded engine;
# espeak-ng gives pronunciations for each organisation's own words (ADR 0032).
for package in ffmpeg pocketsphinx pocketsphinx-en-us espeak-ng; do
  dpkg -s "$package" >/dev/null 2>&1 || apt_packages+=("$package")
done
if $with_test; then
  # Speech tests and bench/asr: espeak-ng (above) speaks test sentences; pocketsphinx-testdata has real speech clips.
  dpkg -s pocketsphinx-testdata >/dev/null 2>&1 || apt_packages+=(pocketsphinx-testdata)
  [ -x /usr/bin/chromium ] || apt_packages+=(chromium)
  dpkg -s fonts-dejavu-core >/dev/null 2>&1 || apt_packages+=(fonts-dejavu-core)
  command -v psql >/dev/null 2>&1 || apt_packages+=(postgresql-client)
fi
if [ ${#apt_packages[@]} -gt 0 ]; then
  echo "Installing Debian packages: ${apt_packages[*]}"
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "${apt_packages[@]}" >/dev/null
fi

npm ci --no-audit --no-fund
