#!/usr/bin/env bash
# Builds build/bin/hermes_VERSION_ARCH.deb from build/bin/hermes and build/bin/hermes-desktop (see nfpm.yaml).
# Run by `go tool task package` after `task build` and `task setup:ort`.
set -euo pipefail
cd "$(dirname "$0")/../.."

bin=build/bin/hermes
window=build/bin/hermes-desktop
for b in "$bin" "$window"; do
	[[ -x $b ]] || { echo "package: $b is missing; run go tool task build" >&2; exit 1; }
done

# The ONNX Runtime library that setup:ort installed (or HERMES_ORT_LIB).
ort="${HERMES_ORT_LIB:-${XDG_DATA_HOME:-$HOME/.local/share}/hermes/lib/libonnxruntime.so.1}"
[[ -f $ort ]] || { echo "package: $ort is missing; run go tool task setup:ort" >&2; exit 1; }

# Debian version from git describe: v1.2.3 -> 1.2.3, v1.2.3-4-gabc -> 1.2.3+git4.abc,
# no tag -> 0.0.0+gitN.abc (N = commits, so a newer build sorts higher); dirty -> +dirty.
desc="$(git describe --tags --always --dirty 2>/dev/null || echo unknown)"
dirty=""
[[ $desc == *-dirty ]] && { dirty=".dirty"; desc="${desc%-dirty}"; }
if [[ $desc =~ ^v?([0-9]+\.[0-9][0-9A-Za-z.]*)-([0-9]+)-g([0-9a-f]+)$ ]]; then
	version="${BASH_REMATCH[1]}+git${BASH_REMATCH[2]}.${BASH_REMATCH[3]}"
elif [[ $desc =~ ^v?([0-9]+\.[0-9][0-9A-Za-z.]*)$ ]]; then
	version="${BASH_REMATCH[1]}"
else
	version="0.0.0+git$(git rev-list --count HEAD 2>/dev/null || echo 0).${desc}"
fi
version="${version}${dirty}"

arch="$(dpkg --print-architecture 2>/dev/null || go env GOARCH)"

# Depends: the packages of the libraries the binary and ONNX Runtime link.
shlibs=""
if command -v dpkg-shlibdeps >/dev/null 2>&1; then
	tmp="$(mktemp -d)"
	trap 'rm -rf "$tmp"' EXIT
	mkdir -p "$tmp/debian"
	printf 'Source: hermes\n\nPackage: hermes\nArchitecture: any\n' >"$tmp/debian/control"
	shlibs="$(cd "$tmp" && dpkg-shlibdeps -O "$OLDPWD/$bin" "$OLDPWD/$window" "$ort" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')"
fi
if [[ -z $shlibs ]]; then # no dpkg-dev: what Debian 12 gives
	shlibs="libc6 (>= 2.34), libgcc-s1 (>= 4.0), libgdk-pixbuf-2.0-0 (>= 2.22.0), libglib2.0-0 (>= 2.16.0), libgtk-3-0 (>= 3.21.4), libjavascriptcoregtk-4.0-18, libstdc++6 (>= 10.2), libwebkit2gtk-4.0-37 (>= 2.21.1)"
fi

# Man page and completions from the binary's own help.
rm -rf build/bin/pkg-gen
go run ./build/package/cmd/hermes-docs -bin "$bin" -out build/bin/pkg-gen

# A Debian changelog (one entry: this build), as Debian policy asks of every package.
{
	printf 'hermes (%s) unstable; urgency=medium\n\n  * Built from commit %s.\n\n' "$version" "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
	printf ' -- Hermes maintainers <maintainers@users.noreply.a-seed-886c58f2.example>  %s\n' "$(git log -1 --format=%aD 2>/dev/null || date -R)"
} | gzip -9n >build/bin/pkg-gen/changelog.gz

rm -f build/bin/hermes_*.deb
HERMES_DEB_VERSION="$version" HERMES_DEB_ARCH="$arch" HERMES_SHLIBS_DEPENDS="$shlibs" HERMES_ORT_LIB_SRC="$ort" \
	go tool nfpm package --config build/package/nfpm.yaml --packager deb --target build/bin/
deb="$(ls build/bin/hermes_*.deb)"
echo "package: $deb ($(du -k "$deb" | cut -f1) KB, version $version)"
