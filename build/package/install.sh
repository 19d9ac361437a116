#!/usr/bin/env bash
# Installs Hermes from this offline bundle; downloads nothing.
#
#   sudo ./install.sh
#
# 1. installs hermes_*.deb (and any other .deb beside it, such as an Ollama
#    package) with apt-get, from these files only;
# 2. imports every *.gguf file beside it into Ollama with
#    `hermes model import FILE --name NAME` (NAME is the file name without
#    .gguf), as the user who ran sudo, when an Ollama is installed or running;
# 3. runs `hermes doctor`, which says what is still missing and how to fix it.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
say() { echo "hermes install: $*"; }

if [[ $(id -u) -ne 0 ]]; then
	if command -v sudo >/dev/null 2>&1; then exec sudo -E bash "$0" "$@"; fi
	say "run this as root (sudo ./install.sh)" >&2
	exit 1
fi

shopt -s nullglob
debs=("$here"/hermes_*.deb)
[[ ${#debs[@]} -eq 1 ]] || { say "expected one hermes_*.deb in $here" >&2; exit 1; }
others=()
for d in "$here"/*.deb; do [[ $d == "${debs[0]}" ]] || others+=("$d"); done

# Installed from these files; the libraries it depends on come from the system's
# apt sources (already there on a Debian/Ubuntu desktop with GTK and WebKitGTK).
say "installing ${debs[0]##*/}${others:+ and ${#others[@]} more package(s)}"
if ! DEBIAN_FRONTEND=noninteractive apt-get install -y "${debs[@]}" "${others[@]}"; then
	say "apt-get could not install it: probably a library Hermes needs (WebKitGTK, GTK, Noto fonts) is missing on this machine; install it from your distribution's media, then run this again" >&2
	exit 1
fi

# Run Hermes as the user who asked for the install, so models and the data dir are theirs.
user="${SUDO_USER:-root}"
as_user() {
	if [[ $user == root ]]; then "$@"; else sudo -H -u "$user" "$@"; fi
}

ggufs=("$here"/*.gguf)
if [[ ${#ggufs[@]} -gt 0 ]]; then
	if command -v ollama >/dev/null 2>&1 || [[ -n ${OLLAMA_HOST:-} ]]; then
		for f in "${ggufs[@]}"; do
			name="$(basename "$f" .gguf | tr '[:upper:]' '[:lower:]' | tr -c 'a-z0-9._:-' '-')"
			say "importing ${f##*/} as $name"
			as_user /usr/bin/hermes model import "$f" --name "$name" || say "import of ${f##*/} failed (see above); retry later with: hermes model import $f --name $name" >&2
		done
	else
		say "no Ollama here: the ${#ggufs[@]} model file(s) were not imported; install Ollama, then run: hermes model import FILE.gguf --name NAME" >&2
	fi
fi

say "checking with hermes doctor"
as_user /usr/bin/hermes doctor || say "hermes doctor reported problems (above); Hermes is installed, start it from the app menu or with: hermes"
exit 0
