#!/usr/bin/env bash
# Creates bench/.venv-ragas, a virtualenv for the Ragas side of bench_vs_ragas.py.
# Ragas lives apart from ragmeter's .venv so neither tool's pins disturb the other.
# Idempotent: reruns only reinstall when requirements-ragas.txt changed.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
VENV="$HERE/.venv-ragas"
REQS="$HERE/requirements-ragas.txt"
STAMP="$VENV/.requirements-ragas.sha256"
PYTHON="${PYTHON:-python3}"

test -x "$VENV/bin/python" || "$PYTHON" -m venv "$VENV"
want="$(sha256sum "$REQS" | cut -d' ' -f1)"
if [ "$(cat "$STAMP" 2>/dev/null || true)" != "$want" ]; then
    "$VENV/bin/pip" install -q --upgrade pip
    # torch would be a multi-GB CUDA download and the bench never needs it: refuse before
    # downloading anything if the requirements would pull it (or an nvidia-* CUDA wheel).
    plan="$("$VENV/bin/pip" install --dry-run -r "$REQS" 2>/dev/null | grep '^Would install' || true)"
    if echo "$plan" | tr ' ' '\n' | grep -qiE '^(torch|nvidia-)'; then
        echo "make_ragas_venv.sh: requirements-ragas.txt would install torch/CUDA; fix it" >&2
        exit 1
    fi
    "$VENV/bin/pip" install -q -r "$REQS"
    echo "$want" >"$STAMP"
fi
echo "$VENV ready: $(RAGAS_DO_NOT_TRACK=true "$VENV/bin/python" -c 'import ragas; print("ragas", ragas.__version__)')"
