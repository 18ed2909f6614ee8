# Sourced by scripts/run and scripts/test: makes .venv with Python 3.12+ and installs a lock file
# into it. A fresh machine needs nothing else; a second run with an unchanged lock is instant.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"

find_python() {
    # .python-version names the pyenv version; fall back to any 3.12+ on PATH.
    local candidate
    if command -v pyenv >/dev/null 2>&1; then
        candidate="$(cd "$ROOT" && pyenv which python 2>/dev/null || true)"
        [ -n "$candidate" ] && echo "$candidate" && return
    fi
    for candidate in python3.13 python3.12 python3; do
        if command -v "$candidate" >/dev/null 2>&1 &&
            "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 12))'; then
            command -v "$candidate"
            return
        fi
    done
    echo "FudgeTable needs Python 3.12 or newer (pyenv install 3.12 works)." >&2
    exit 1
}

installed() {
    # Whether .venv holds what lock file $1 names, as installed last.
    cmp -s "$ROOT/$1" "$VENV/.installed-$1"
}

ensure_venv() {
    local lock="$ROOT/$1"
    if [ ! -x "$VENV/bin/python" ] ||
        ! "$VENV/bin/python" -c 'import sys; sys.exit(sys.version_info < (3, 12))'; then
        rm -rf "$VENV"
        "$(find_python)" -m venv "$VENV"
    fi
    # The dev lock names everything the runtime lock does, so scripts/run takes a .venv that
    # scripts/test made as it is, instead of installing over the tools' versions.
    if ! installed "$1" && ! { [ "$1" = requirements.lock ] && installed requirements-dev.lock; }
    then
        echo "Installing $1 into .venv ..."
        # This machine's pip config names local mirrors that may be absent; that warning is noise.
        "$VENV/bin/python" -m pip install --quiet -r "$lock" 2> >(grep -v "is ignored" >&2)
        "$VENV/bin/python" -m pip install --quiet --no-deps -e "$ROOT" 2> >(grep -v "is ignored" >&2)
        # Only the last install is what .venv holds.
        rm -f "$VENV"/.installed-*
        cp "$lock" "$VENV/.installed-$1"
    fi
    export PATH="$VENV/bin:$PATH"
}
