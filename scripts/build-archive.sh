#!/usr/bin/env bash
# Builds the competition archive (SV-COMP): a ZIP with exactly one folder
# `tessera/` holding LICENSE, README, smoketest.sh, the start script
# `tessera`, the program `bin/tessera`, the Z3 library it links
# (`lib/libz3.so.*`, copied from the system, found through the start script)
# and the smoke test's examples.
#
# Usage: scripts/build-archive.sh [OUT.zip]   (default: target/tessera.zip)
# Reuses the release build (`cargo build --release`). Needs `zip` and `ldd`.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${1:-$root/target/tessera.zip}
case $out in /*) ;; *) out=$PWD/$out ;; esac
command -v zip >/dev/null || { echo "build-archive: needs zip (apt-get install -y zip)" >&2; exit 1; }

cd "$root"
cargo build --release --quiet
binary=$root/target/release/tessera
z3=$(ldd "$binary" | awk '$1 ~ /^libz3\.so/ { print $3 }')
if [ -z "$z3" ] || [ ! -f "$z3" ]; then
    echo "build-archive: cannot find the libz3 that $binary links (ldd)" >&2
    exit 1
fi

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
dir=$stage/tessera
mkdir -p "$dir/bin" "$dir/lib" "$dir/examples"
cp "$binary" "$dir/bin/tessera"
# Debug information is for developers; symbols stay for backtraces.
if command -v strip >/dev/null; then strip --strip-debug "$dir/bin/tessera"; fi
# Under the name the binary asks for (libz3.so.4), not the symlink's target.
cp -L "$z3" "$dir/lib/$(basename "$z3")"
cp LICENSE "$dir/LICENSE"
cp scripts/archive/README "$dir/README"
install -m 755 scripts/archive/tessera scripts/archive/smoketest.sh "$dir/"
cp scripts/archive/examples/* "$dir/examples/"

mkdir -p "$(dirname "$out")"
rm -f "$out"
(cd "$stage" && zip -q -r -X "$out" tessera)
echo "build-archive: $out ($(du -h "$out" | cut -f1))"
