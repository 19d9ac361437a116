#!/usr/bin/env bash
# Package test (as root; `go tool task test:package` builds the package first):
# inspects build/bin/hermes_*.deb with dpkg-deb, installs it with apt-get, runs the
# installed /usr/bin/hermes (--version, doctor --json with a fresh data dir and HOME:
# the intent classifier must load with ONNX Runtime from /usr/lib/hermes alone; the
# intent model is compiled into the binary, so it is never out of step with it), removes it and checks
# that nothing of Hermes is left outside the data dir. Prints size and install time.
# While installed, the desktop smoke test (build/test/desktop-smoke.sh) runs against
# /usr/bin/hermes and prints its cold start. Then the upgrade: an older build of the
# package with a data dir at the previous schema (one session), the new package over it:
# the session is still there, the schema is the newest, and purge leaves the data dir.
set -euo pipefail
cd "$(dirname "$0")/../.."
source build/package/test-package-lib.sh

fail() { echo "test:package: FAIL: $*" >&2; exit 1; }
[[ $(id -u) -eq 0 ]] || fail "run as root (it installs and removes the package)"
debs=(build/bin/hermes_*.deb)
[[ ${#debs[@]} -eq 1 && -f ${debs[0]} ]] || fail "expected one build/bin/hermes_*.deb (run go tool task package)"
deb="${debs[0]}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# Test helpers: an SQLite CLI with Hermes's SQLite, and the fake Ollama for the smoke test.
sqlite="$work/sqlite-exec"
go build -tags sqlite_fts5 -o "$sqlite" ./build/package/cmd/sqlite-exec || fail "building sqlite-exec"
go build -o "$work/fake-ollama" ./backend/llm/llmtest/cmd/fake-ollama || fail "building fake-ollama"

# 1. Control fields: Depends names the linked libraries and the fonts.
dpkg-deb -I "$deb" >"$work/info"
depends="$(dpkg-deb -f "$deb" Depends)"
for p in libc6 libgtk-3-0 'libwebkit2gtk-4\.[01]-37' 'libjavascriptcoregtk-4\.[01]-18' 'libglib2\.0-0' 'libstdc\+\+6' fonts-noto-cjk fonts-noto-color-emoji; do
	grep -Eq "(^|, )${p}( |,|$)" <<<"$depends" || fail "Depends lacks $p: $depends"
done
[[ $(dpkg-deb -f "$deb" Package) == hermes ]] || fail "Package is not hermes"
version="$(dpkg-deb -f "$deb" Version)"
[[ $version =~ ^[0-9] ]] || fail "Version $version does not start with a digit"

# 2. Contents.
dpkg-deb -c "$deb" | awk '{print $NF}' | sed 's|^\./|/|' >"$work/contents"
for f in /usr/bin/hermes /usr/lib/hermes/hermes-desktop /usr/lib/hermes/libonnxruntime.so.1 \
	/usr/share/applications/hermes.desktop /usr/share/metainfo/hermes.metainfo.xml \
	/usr/share/icons/hicolor/scalable/apps/hermes.svg /usr/share/icons/hicolor/256x256/apps/hermes.png \
	/usr/share/man/man1/hermes.1.gz /usr/share/bash-completion/completions/hermes \
	/usr/share/zsh/vendor-completions/_hermes /usr/share/fish/vendor_completions.d/hermes.fish \
	/usr/share/doc/hermes/copyright; do
	grep -qx "$f" "$work/contents" || fail "$f is not in the package"
done
bash -n <(dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/share/bash-completion/completions/hermes) || fail "bash completion does not parse"

# Lintian: no errors (installed from Debian's packages when missing; skipped if that fails).
if ! command -v lintian >/dev/null 2>&1; then
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends lintian >/dev/null 2>&1 || true
fi
if command -v lintian >/dev/null 2>&1; then
	lintian --fail-on error --allow-root "$deb" >&2 || fail "lintian found errors (above)"
else
	echo "test:package: lintian is not installed and could not be installed: skipped" >&2
fi

# 3. Install (a Hermes left from an earlier run goes first).
if dpkg-query -W -f '${Status}' hermes 2>/dev/null | grep -q installed; then apt-get remove -y -qq hermes >/dev/null; fi
snapshot() { find /usr /etc /opt /var/lib/dpkg/info -xdev -iname '*hermes*' 2>/dev/null | sort; }
snapshot >"$work/before"
t0=$(date +%s%N)
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "./$deb" >"$work/apt.log" 2>&1 || { cat "$work/apt.log" >&2; fail "apt-get install"; }
install_ms=$(( ($(date +%s%N) - t0) / 1000000 ))
[[ $(dpkg-query -W -f '${Version}' hermes) == "$version" ]] || fail "installed version is not $version"

# 4. The installed binary.
out="$(/usr/bin/hermes --version)" || fail "hermes --version"
if [[ $version =~ \+git[0-9]+\.([0-9a-f]+) ]]; then # the commit of the package is in --version
	grep -q "${BASH_REMATCH[1]}" <<<"$out" || fail "--version ($out) does not name the commit of $version"
fi
echo "test:package: /usr/bin/hermes --version: $out"
# The command line loads no desktop library; the window's executable does.
# (ldd's output is read whole first: with pipefail, grep -q stopping early can kill ldd with SIGPIPE.)
cli_libs="$(ldd /usr/bin/hermes)" window_libs="$(ldd /usr/lib/hermes/hermes-desktop)"
! grep -Eq 'libgtk|libwebkit' <<<"$cli_libs" || fail "/usr/bin/hermes links the desktop libraries: $(grep -E 'gtk|webkit' <<<"$cli_libs")"
grep -q libwebkit2gtk <<<"$window_libs" || fail "/usr/lib/hermes/hermes-desktop does not link WebKitGTK"

# doctor with a data dir and HOME of its own: the ONNX Runtime can only come from /usr/lib/hermes.
home="$work/home"; mkdir -p "$home"
env -i PATH=/usr/bin:/bin HOME="$home" XDG_DATA_HOME="$home/.local/share" HERMES_DATA_DIR="$work/data" \
	OLLAMA_HOST=127.0.0.1:9 /usr/bin/hermes doctor --json >"$work/doctor.json" 2>"$work/doctor.err" || true
intent="$(jq -r '.checks[] | select(.name=="intent") | .status' "$work/doctor.json")" || fail "doctor --json is not JSON: $(cat "$work/doctor.json" "$work/doctor.err")"
[[ $intent == ok ]] || fail "doctor intent check is '$intent': $(jq -c '.checks[] | select(.name=="intent")' "$work/doctor.json")"
! grep -qi npm "$work/doctor.json" || fail "doctor mentions npm: $(cat "$work/doctor.json")"
[[ ! -e $home/.local/share/hermes/lib ]] || fail "the installed binary used a library in HOME"
echo "test:package: doctor: $(jq -c '.checks[] | select(.name=="intent")' "$work/doctor.json")"

# The desktop window of the installed binary (Xvfb), with a HOME of its own.
mkdir -p "$work/smoke-home"
HOME="$work/smoke-home" XDG_DATA_HOME="$work/smoke-home/.local/share" ARTIFACTS=build/test-artifacts/package \
	HERMES_SMOKE_BIN=/usr/bin/hermes HERMES_FAKE_OLLAMA="$work/fake-ollama" \
	bash build/test/desktop-smoke.sh >"$work/smoke.log" 2>&1 || { cat "$work/smoke.log" >&2; fail "desktop smoke of /usr/bin/hermes"; }
cold_ms="$(sed -n 's/.*ui_ready_ms=\([0-9]*\).*/\1/p' "$work/smoke.log")"
[[ -n $cold_ms ]] || fail "the desktop smoke printed no cold start: $(cat "$work/smoke.log")"
echo "test:package: $(grep 'desktop smoke: ok' "$work/smoke.log")"
[[ ! -e $work/smoke-home/.local/share/hermes/lib ]] || fail "the installed binary used a library in HOME"

# 5. Remove: nothing of Hermes is left (the data dir is the user's and stays).
DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq hermes >"$work/apt.log" 2>&1 || { cat "$work/apt.log" >&2; fail "apt-get remove"; }
while read -r f; do [[ ! -e $f || -d $f ]] || fail "$f is left after remove"; done <"$work/contents"
[[ ! -e /usr/lib/hermes && ! -e /usr/share/doc/hermes ]] || fail "/usr/lib/hermes or /usr/share/doc/hermes is left after remove"
snapshot >"$work/after"
diff "$work/before" "$work/after" >&2 || fail "files of Hermes are left after remove (above)"
[[ -f $work/data/hermes.db ]] || fail "the data dir was touched by remove"

# 6. Upgrade: an older build installed, a data dir at the previous schema, the new package over it.
old_version=0.0.0~old
dpkg --compare-versions "$old_version" lt "$version" || fail "$old_version is not older than $version"
older_deb "$deb" "$old_version" "$work/hermes_old.deb"
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$work/hermes_old.deb" >"$work/apt.log" 2>&1 || { cat "$work/apt.log" >&2; fail "apt-get install of the older build"; }
[[ $(dpkg-query -W -f '${Version}' hermes) == "$old_version" ]] || fail "the older build is not installed"
olddata="$work/old-data"
newest="$(previous_schema_datadir "$olddata")"
schema() { "$sqlite" "$olddata/hermes.db" "SELECT MAX(version) || '/' || COUNT(*) FROM schema_migrations"; }
[[ $(schema) == "$((newest - 1))/$((newest - 1))" ]] || fail "the old data dir is at schema $(schema), not $((newest - 1))"
t0=$(date +%s%N)
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "./$deb" >"$work/apt.log" 2>&1 || { cat "$work/apt.log" >&2; fail "apt-get install over the older build"; }
upgrade_ms=$(( ($(date +%s%N) - t0) / 1000000 ))
[[ $(dpkg-query -W -f '${Version}' hermes) == "$version" ]] || fail "the upgrade did not install $version"
hermes_old() {
	env -i PATH=/usr/bin:/bin HOME="$home" HERMES_DATA_DIR="$olddata" OLLAMA_HOST=127.0.0.1:9 /usr/bin/hermes "$@"
}
hermes_old session list --json >"$work/list.json" || fail "session list on the old data dir: $(cat "$work/list.json")"
sid=0190a5e0-0000-7000-8000-000000000001
jq -e --arg id "$sid" 'any(.[]; .id == $id and .title == "Old trip plans" and .messageCount == 2)' "$work/list.json" >/dev/null ||
	fail "the old session is not in session list after the upgrade: $(cat "$work/list.json")"
hermes_old session show "$sid" --json >"$work/show.json" || fail "session show $sid: $(cat "$work/show.json")"
jq -e '[.messages[].content] == ["Which ferry goes to Hydra before noon?", "The 08:00 ferry from Piraeus reaches Hydra at 09:40."]' \
	"$work/show.json" >/dev/null || fail "the old messages changed in the upgrade: $(jq -c .messages "$work/show.json")"
hermes_old session search Hydra --json >"$work/search.json" || fail "session search: $(cat "$work/search.json")"
[[ $(jq length "$work/search.json") == 2 ]] || fail "search does not find the old messages: $(cat "$work/search.json")"
[[ $(schema) == "$newest/$newest" ]] || fail "the data dir is at schema $(schema) after the upgrade, not $newest"
echo "test:package: upgrade from $old_version: the old session and its messages are there, schema $((newest - 1)) -> $newest, apt-get install ${upgrade_ms} ms"

# Purge: nothing of Hermes is left, and the data dir (the user's) is untouched.
sum="$(cat "$olddata"/hermes.db* | sha256sum)"
DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq hermes >"$work/apt.log" 2>&1 || { cat "$work/apt.log" >&2; fail "apt-get purge"; }
snapshot >"$work/after"
diff "$work/before" "$work/after" >&2 || fail "files of Hermes are left after purge (above)"
[[ $(cat "$olddata"/hermes.db* | sha256sum) == "$sum" ]] || fail "the data dir was touched by purge"
[[ $("$sqlite" "$olddata/hermes.db" "SELECT COUNT(*) FROM messages WHERE session_id = '$sid'") == 2 ]] || fail "the old session is not in the data dir after purge"

echo "test:package: ok — $deb: $(du -k "$deb" | cut -f1) KB, installed $(( $(dpkg-deb -f "$deb" Installed-Size) / 1024 )) MB, apt-get install ${install_ms} ms, upgrade ${upgrade_ms} ms, cold start ${cold_ms} ms"
