#!/usr/bin/env bash
# Checks the competition archive: builds it (scripts/build-archive.sh, reusing
# the release build), checks that it has exactly one top folder `tessera/`
# with LICENSE, README, smoketest.sh and the start script, unpacks it into a
# temporary folder and runs its smoke test from an unrelated working
# directory: once as is, once with an empty PATH (no gcc, no system tools),
# and checks that the bundled libz3 is the one the program loads.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
need=()
command -v zip >/dev/null 2>&1 || need+=(zip)
command -v unzip >/dev/null 2>&1 || need+=(unzip)
if [ ${#need[@]} -gt 0 ]; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq "${need[@]}"
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
archive=$work/tessera.zip
bash "$root/scripts/build-archive.sh" "$archive"

listing=$(unzip -Z1 "$archive")
tops=$(cut -d/ -f1 <<<"$listing" | sort -u)
if [ "$tops" != tessera ]; then
    echo "check_archive: the archive must have exactly one top folder tessera/, has: $tops" >&2
    exit 1
fi
for f in LICENSE README smoketest.sh tessera bin/tessera; do
    if ! grep -qx "tessera/$f" <<<"$listing"; then
        echo "check_archive: tessera/$f is missing from the archive" >&2
        exit 1
    fi
done

unzip -q "$archive" -d "$work/unpacked"
tool=$work/unpacked/tessera
mkdir "$work/elsewhere"
cd "$work/elsewhere"
libs=$(LD_LIBRARY_PATH="$tool/lib" ldd "$tool/bin/tessera")
if ! grep -q "libz3.* => $tool/lib/" <<<"$libs"; then
    echo "check_archive: bin/tessera does not load the bundled lib/libz3" >&2
    exit 1
fi
echo "== smoke test from $PWD"
"$tool/smoketest.sh"
echo "== smoke test with an empty PATH (no gcc)"
env -i PATH=/nonexistent HOME="$work" /bin/sh "$tool/smoketest.sh"
echo "archive check passed"
