#!/usr/bin/env bash
# Checks the BenchExec integration (benchmarks/benchexec/): BenchExec's own
# tool-info checker, one real run of a built tessera through the module, and
# the benchmark definition. Installs BenchExec from PyPI into a virtual
# environment (target/benchexec-venv, or $BENCHEXEC_VENV) when Python does
# not have it yet.
#
# Usage: .ci/check_benchexec.sh [TOOL_DIR]   (default: target/release, which
# must hold a built `tessera`). Exits non-zero when a check fails.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tool_dir=${1:-$root/target/release}
if [ ! -x "$tool_dir/tessera" ]; then
    echo "check_benchexec: no executable $tool_dir/tessera (run cargo build --release first)" >&2
    exit 1
fi

python=${PYTHON:-python3}
if ! "$python" -c 'import benchexec' 2>/dev/null; then
    venv=${BENCHEXEC_VENV:-$root/target/benchexec-venv}
    if ! "$venv/bin/python" -c 'import benchexec' 2>/dev/null; then
        echo "check_benchexec: installing BenchExec into $venv" >&2
        "$python" -m venv "$venv"
        "$venv/bin/python" -m pip install --quiet --disable-pip-version-check benchexec
    fi
    python=$venv/bin/python
fi
"$python" -c 'import benchexec; print("BenchExec", benchexec.__version__)'

exec "$python" "$root/benchmarks/benchexec/check_tool_info.py" "$tool_dir"
