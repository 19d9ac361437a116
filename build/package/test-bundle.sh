#!/usr/bin/env bash
# Bundle test (as root): makes the bundle with a tiny GGUF the test writes, unpacks it,
# runs its install.sh in a fresh temporary HOME against the fake Ollama, checks the
# model was imported through Hermes and doctor ran, then removes the package.
set -euo pipefail
cd "$(dirname "$0")/../.."
fail() { echo "test:bundle: FAIL: $*" >&2; [[ -f ${work:-}/install.log ]] && tail -20 "$work/install.log" >&2; exit 1; }
[[ $(id -u) -eq 0 ]] || fail "run as root"
work="$(mktemp -d)"
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"' EXIT

go run ./build/package/cmd/tiny-gguf "$work/Tiny-Model.gguf"
GGUF="$work/Tiny-Model.gguf" bash build/package/bundle.sh >/dev/null
tgz="$(ls build/bin/hermes-bundle_*.tar.gz)"
tar -C "$work" -xzf "$tgz"
dir="$(echo "$work"/hermes-bundle_*)"
for f in install.sh Tiny-Model.gguf; do [[ -f $dir/$f ]] || fail "$f is not in the bundle"; done
ls "$dir"/hermes_*.deb >/dev/null || fail "no .deb in the bundle"

build/bin/fake-ollama --addr 127.0.0.1:0 >"$work/fake.out" 2>&1 &
pids+=($!)
for _ in $(seq 50); do grep -q FAKE_OLLAMA_URL "$work/fake.out" && break; sleep 0.1; done
url="$(sed -n 's/^FAKE_OLLAMA_URL=//p' "$work/fake.out")"
[[ -n $url ]] || fail "fake-ollama did not start"

if dpkg-query -W -f '${Status}' hermes 2>/dev/null | grep -q installed; then apt-get remove -y -qq hermes >/dev/null; fi
mkdir -p "$work/home"
env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME="$work/home" HERMES_DATA_DIR="$work/data" OLLAMA_HOST="$url" \
	bash "$dir/install.sh" >"$work/install.log" 2>&1 || fail "install.sh failed"
grep -q "importing Tiny-Model.gguf as tiny-model" "$work/install.log" || fail "install.sh did not import the GGUF"
grep -q "import of" "$work/install.log" && fail "the import failed"
grep -q "hermes install: checking with hermes doctor" "$work/install.log" || fail "install.sh did not run doctor"
HERMES_DATA_DIR="$work/data" HOME="$work/home" OLLAMA_HOST="$url" /usr/bin/hermes model list --json | grep -q '"tiny-model' ||
	fail "tiny-model is not in Ollama's list after install.sh"
DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq hermes >/dev/null
echo "test:bundle: ok — $tgz ($(du -k "$tgz" | cut -f1) KB) installed Hermes and imported the GGUF"
