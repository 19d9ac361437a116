#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages Hermes needs to build and test, if missing.
# As root it installs them; otherwise it prints the exact command to run.
set -euo pipefail

# libgtk-3-dev + libwebkit2gtk-4.0-dev: the Wails desktop window (WebKitGTK 4.0)
# pkg-config + gcc: cgo (SQLite, WebKit, ONNX Runtime)
# xvfb + xauth + imagemagick: the desktop smoke test (virtual display, screenshot)
# time: GNU time, the peak memory of whole processes in the start-up benchmarks
# chromium: browser end-to-end tests (driven by playwright-core; no browser download)
# fonts-noto-cjk + fonts-noto-color-emoji: Chinese text and emoji render as glyphs, not
# boxes, in the window, the browser tests and their screenshots
# tesseract-ocr + tesseract-ocr-eng + tesseract-ocr-chi-sim + poppler-utils: text recognition
# of scanned PDFs and images for the knowledge base (Tesseract with its English and simplified
# Chinese data; pdftoppm renders a PDF's pages), run as child processes in the parser cage
# fonts-droid-fallback: the TrueType font a PDF export draws Chinese text with (backend/pdfdoc)
ocr=(tesseract-ocr tesseract-ocr-eng tesseract-ocr-chi-sim poppler-utils)
packages=(pkg-config gcc libgtk-3-dev libwebkit2gtk-4.0-dev xvfb xauth imagemagick time chromium fonts-noto-cjk fonts-noto-color-emoji fonts-droid-fallback "${ocr[@]}")
if [[ "${1:-}" == "--runtime" ]]; then
  packages=(pkg-config gcc libgtk-3-dev libwebkit2gtk-4.0-dev fonts-noto-cjk fonts-noto-color-emoji fonts-droid-fallback "${ocr[@]}")
fi

if ! command -v dpkg-query >/dev/null; then
  echo "setup: not a Debian/Ubuntu system; install the equivalents of: ${packages[*]}" >&2
  exit 0
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [[ ${#missing[@]} -eq 0 ]]; then
  exit 0
fi

if [[ $(id -u) -ne 0 ]]; then
  echo "setup: missing system packages: ${missing[*]}" >&2
  echo "setup: run this, then try again:" >&2
  echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
echo "setup: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >&2
apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
