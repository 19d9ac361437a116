#!/usr/bin/env bash
# Makes the offline bundle build/bin/hermes-bundle_VERSION_ARCH.tar.gz: the Debian
# package from `task package`, install.sh, and what the builder points at:
#   GGUF="a.gguf b.gguf"   model files, imported by install.sh
#   OLLAMA_DEB=ollama.deb  an Ollama package, installed by install.sh
# Nothing is downloaded, here or by install.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."
debs=(build/bin/hermes_*.deb)
[[ ${#debs[@]} -eq 1 && -f ${debs[0]} ]] || { echo "bundle: expected one build/bin/hermes_*.deb (run go tool task package)" >&2; exit 1; }
deb="${debs[0]}"
base="$(basename "$deb" .deb)"
name="hermes-bundle_${base#hermes_}"
stage="build/bin/$name"
rm -rf "$stage" build/bin/hermes-bundle_*.tar.gz
mkdir -p "$stage"
cp "$deb" "$stage/"
install -m 0755 build/package/install.sh "$stage/install.sh"
for f in ${GGUF:-}; do
	[[ -f $f ]] || { echo "bundle: GGUF file $f does not exist" >&2; exit 1; }
	cp "$f" "$stage/"
done
if [[ -n ${OLLAMA_DEB:-} ]]; then
	[[ -f $OLLAMA_DEB ]] || { echo "bundle: OLLAMA_DEB=$OLLAMA_DEB does not exist" >&2; exit 1; }
	cp "$OLLAMA_DEB" "$stage/"
fi
tar -C build/bin -czf "build/bin/$name.tar.gz" "$name"
rm -rf "$stage"
echo "bundle: build/bin/$name.tar.gz ($(du -k "build/bin/$name.tar.gz" | cut -f1) KB): $(tar -tzf "build/bin/$name.tar.gz" | sed 's|^[^/]*/||' | grep . | tr '\n' ' ')"
