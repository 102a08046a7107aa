#!/bin/sh
# Smoke test of the Tessera archive: runs the tool on the small examples in
# examples/ and checks its answers. Works from any working directory and
# needs nothing but a POSIX shell (no gcc: the examples are preprocessed).
# Exit status 0 when every check passes.
case $0 in
    */*) dir=${0%/*} ;;
    *) dir=. ;;
esac
tessera=$dir/tessera
examples=$dir/examples
failed=0

check() {
    expected=$1
    shift
    output=$("$tessera" "$@" 2>&1)
    first=${output%%
*}
    if [ "$first" = "$expected" ]; then
        echo "ok   $expected: tessera $*"
    else
        echo "FAIL expected $expected: tessera $*"
        echo "$output"
        failed=1
    fi
}

version=$("$tessera" --version 2>&1)
case $version in
    "tessera "[0-9]*) echo "ok   version: $version" ;;
    *) echo "FAIL tessera --version printed: $version"; failed=1 ;;
esac
check TRUE prove --format svcomp --timeout 20 "$examples/countdown.i"
check "FALSE(termination)" prove --format svcomp --timeout 20 "$examples/up_forever.i"
check TRUE prove --format svcomp --timeout 20 --property "$examples/termination.prp" "$examples/countdown.yml"
if [ "$failed" = 0 ]; then
    echo "smoke test passed"
else
    echo "smoke test FAILED"
fi
exit "$failed"
