#!/usr/bin/env bash
# Desktop smoke test: the real binary under Xvfb opens its window, the frontend loads
# and calls the backend (UIReady), a screenshot is saved, and the app exits 0.
# Prints the cold start to UI ready and the idle RSS of the whole app (all processes).
# The binary is $1, else HERMES_SMOKE_BIN, else build/bin/hermes; the fake Ollama is
# HERMES_FAKE_OLLAMA, else fake-ollama next to the binary.
set -euo pipefail
bin="$(realpath "${1:-${HERMES_SMOKE_BIN:-build/bin/hermes}}")"
fake="${HERMES_FAKE_OLLAMA:-$(dirname "$bin")/fake-ollama}"
art="${ARTIFACTS:-build/test-artifacts}"
mkdir -p "$art"
work="$(mktemp -d)"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

fail() { echo "desktop smoke: FAIL: $*" >&2; [[ -f "$work/app.log" ]] && tail -30 "$work/app.log" >&2; exit 1; }

# A fake Ollama so the UI has something to talk to.
"$fake" --addr 127.0.0.1:0 >"$work/fake.out" 2>&1 &
pids+=($!)
for _ in $(seq 50); do grep -q FAKE_OLLAMA_URL "$work/fake.out" && break; sleep 0.1; done
url="$(sed -n 's/^FAKE_OLLAMA_URL=//p' "$work/fake.out")"
[[ -n "$url" ]] || fail "fake-ollama did not start"

# A private X display.
Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp 3>"$work/display" 2>"$work/xvfb.log" &
pids+=($!)
# Up to 30 s: on a loaded machine Xvfb took more than the 5 s once allowed (a CI run failed so).
for _ in $(seq 300); do [[ -s "$work/display" ]] && break; sleep 0.1; done
[[ -s "$work/display" ]] || fail "Xvfb did not start in 30 s: $(tail -5 "$work/xvfb.log" 2>/dev/null)"
export DISPLAY=":$(head -1 "$work/display")"

# Cold start: a fresh data dir, the real binary, no arguments = desktop window.
HERMES_SMOKE=1 HERMES_SMOKE_HOLD=6s OLLAMA_HOST="$url" WEBKIT_DISABLE_COMPOSITING_MODE=1 \
  "$bin" --data-dir "$work/data" >"$work/app.log" 2>&1 &
app=$!
pids+=($app)
ready=""
for _ in $(seq 600); do
  ready="$(sed -n 's/^HERMES_UI_READY ms=//p' "$work/app.log")"
  [[ -n "$ready" ]] && break
  kill -0 "$app" 2>/dev/null || fail "the app exited before the UI was ready"
  sleep 0.1
done
[[ -n "$ready" ]] || fail "the UI did not report ready within 60 s"

sleep 3 # let it settle to idle
# The page reaches every bound service (App and each domain's) through Wails (app/desktopsmoke.go).
grep -q '^HERMES_BOUND ok$' "$work/app.log" || fail "the window's page does not reach every bound service: $(grep '^HERMES_BOUND' "$work/app.log" || echo 'no answer')"
# RSS of the app and every process it started (WebKit's web and network processes).
tree() { echo "$1"; for c in $(pgrep -P "$1"); do tree "$c"; done; }
# RSS counts shared libraries once per process; PSS shares them out, so it adds up.
rss=0; pss=0; parts=""
for p in $(tree "$app"); do
  kb="$(awk '/^VmRSS:/ {print $2}' "/proc/$p/status" 2>/dev/null || echo 0)"
  pkb="$(awk '/^Pss:/ {print $2}' "/proc/$p/smaps_rollup" 2>/dev/null || echo 0)"
  rss=$((rss + ${kb:-0})); pss=$((pss + ${pkb:-0}))
  parts="$parts $(cat /proc/$p/comm 2>/dev/null)=$(( ${pkb:-0} / 1024 ))MB"
done
import -window root "$art/desktop.png"

wait "$app" || fail "the app exited with status $?"
echo "desktop smoke: ok: ui_ready_ms=$ready idle_rss_mb=$((rss / 1024)) idle_pss_mb=$((pss / 1024)) ($parts) screenshot=$art/desktop.png"
