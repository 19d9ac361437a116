#!/usr/bin/env bash
# Installs the ONNX Runtime shared library (1.24.1) that Hermes' intent
# classifier loads, at the place Hermes looks for it:
#
#   ${XDG_DATA_HOME:-$HOME/.local/share}/hermes/lib/libonnxruntime.so.1
#
# The library ships inside the npm package onnxruntime-node@1.24.1
# (package/bin/napi-v6/linux/<arch>/libonnxruntime.so.1). This script packs
# that package with npm (using npm's own configured registry or cache), and
# extracts only that one file. It is idempotent: when the library is already
# installed with the right version it does nothing.
#
# Offline: set HERMES_ORT_TARBALL to a copy of onnxruntime-node-1.24.1.tgz
# made elsewhere with `npm pack onnxruntime-node@1.24.1`.
#
# Usage: bash build/setup/ort.sh        (or: go tool task setup:ort)
set -euo pipefail

version="1.24.1"
pkg="onnxruntime-node@${version}"
lib_name="libonnxruntime.so.1"

data_home="${XDG_DATA_HOME:-}"
if [ -z "${data_home}" ]; then
	if [ -z "${HOME:-}" ]; then
		echo "setup ort: neither XDG_DATA_HOME nor HOME is set; set one and run again" >&2
		exit 1
	fi
	data_home="${HOME}/.local/share"
fi
dest_dir="${data_home}/hermes/lib"
dest="${dest_dir}/${lib_name}"

case "$(uname -s)" in
Linux) ;;
*)
	echo "setup ort: only Linux is supported by this script (got $(uname -s))" >&2
	exit 1
	;;
esac
case "$(uname -m)" in
x86_64 | amd64) arch="x64" ;;
aarch64 | arm64) arch="arm64" ;;
*)
	echo "setup ort: unsupported CPU architecture $(uname -m)" >&2
	exit 1
	;;
esac
member="package/bin/napi-v6/linux/${arch}/${lib_name}"

# has_version FILE: true when FILE is the expected ONNX Runtime release.
has_version() {
	[ -s "$1" ] && LC_ALL=C grep -aqF "onnxruntime" "$1" && LC_ALL=C grep -aqx -F "${version}" <(LC_ALL=C tr -c '[:print:]' '\n' <"$1")
}

if has_version "${dest}"; then
	echo "setup ort: ONNX Runtime ${version} already installed at ${dest}"
	exit 0
fi

work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT

if [ -n "${HERMES_ORT_TARBALL:-}" ]; then
	if [ ! -f "${HERMES_ORT_TARBALL}" ]; then
		echo "setup ort: HERMES_ORT_TARBALL=${HERMES_ORT_TARBALL} does not exist" >&2
		exit 1
	fi
	tarball="${HERMES_ORT_TARBALL}"
else
	if ! command -v npm >/dev/null 2>&1; then
		echo "setup ort: npm is not installed; install Node.js/npm, or set HERMES_ORT_TARBALL to onnxruntime-node-${version}.tgz" >&2
		exit 1
	fi
	echo "setup ort: fetching ${pkg} with npm pack (about 85 MB)..." >&2
	if ! (cd "${work}" && npm pack --silent "${pkg}" >"${work}/packed.txt"); then
		echo "setup ort: npm pack ${pkg} failed; check npm's network or cache, or set HERMES_ORT_TARBALL" >&2
		exit 1
	fi
	tarball="${work}/$(tail -n 1 "${work}/packed.txt")"
fi

if ! tar -xzf "${tarball}" -C "${work}" "${member}"; then
	echo "setup ort: ${member} not found in ${tarball}" >&2
	exit 1
fi
if ! has_version "${work}/${member}"; then
	echo "setup ort: ${member} in ${tarball} is not ONNX Runtime ${version}" >&2
	exit 1
fi

mkdir -p "${dest_dir}"
# Write to a temporary name and rename, so a half-written library is never
# found by the lookup.
cp "${work}/${member}" "${dest}.tmp.$$"
chmod 0755 "${dest}.tmp.$$"
mv -f "${dest}.tmp.$$" "${dest}"
echo "setup ort: installed ONNX Runtime ${version} at ${dest}"
