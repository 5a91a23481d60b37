#!/usr/bin/env bash
# Installs what Murmur needs on a fresh Debian machine: Node 24 when the machine's Node is older
# than 22, Debian packages, and the npm dependencies. `--test` adds what the test suite needs.
set -euo pipefail
cd "$(dirname "$0")/.."

with_test=false
with_whisper=true
whisper_model=""
expect_model=false
for arg in "$@"; do
  if $expect_model; then whisper_model="$arg"; expect_model=false; continue; fi
  case "$arg" in
    --test) with_test=true ;;
    --no-whisper) with_whisper=false ;;
    --whisper-model) expect_model=true ;;
    --whisper-model=*) whisper_model="${arg#--whisper-model=}" ;;
    *) echo "unknown option: $arg" >&2; exit 2 ;;
  esac
done
if $expect_model; then echo "--whisper-model needs a model name (e.g. base, small, base.en)" >&2; exit 2; fi

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

# Issue 26: a multilingual Whisper model (docs/speech.md "Whisper model"), checked against the
# published SHA-1. Never fails set-up: without it the embedded engine is used, and this says so.
if $with_whisper; then
  node scripts/provision-whisper.ts ${whisper_model:+--model "$whisper_model"} || echo "Whisper model not installed; the embedded engine will be used."
else
  echo "Whisper model skipped (--no-whisper); the embedded engine will be used."
fi
