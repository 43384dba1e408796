# Sourced by scripts/test and scripts/run (bash). ensure_venv <requirements file> moves to the
# repository root and makes .venv hold what the file asks for. The install is skipped when the
# file, and every file it pulls in with -r, hash the same as at the last successful install,
# so the second run starts at once.

ensure_venv() {
    local req="$1"
    cd "$(dirname "${BASH_SOURCE[0]}")/.."
    local python="${PYTHON:-python3}"
    if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
        echo "Conclave needs Python 3.11 or newer as '$python' (set PYTHON=... to choose another)." >&2
        return 1
    fi
    if ! .venv/bin/python -m pip --version >/dev/null 2>&1; then
        echo "Creating .venv with $("$python" --version 2>&1)..." >&2
        rm -rf .venv
        if ! "$python" -m venv .venv; then
            rm -rf .venv
            echo "Could not create .venv. On Debian or Ubuntu: sudo apt install python3-venv" >&2
            return 1
        fi
    fi
    local files=("$req") included
    while read -r included; do
        files+=("$included")
    done < <(sed -n 's/^[[:space:]]*-r[[:space:]]*\([^[:space:]]*\).*/\1/p' "$req")
    local stamp want
    stamp=".venv/.installed-$(basename "$req").sha256"
    want="$(cat "${files[@]}" | sha256sum | cut -d' ' -f1)"
    if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
        echo "Installing $req into .venv (first run, or the requirements changed)..." >&2
        .venv/bin/python -m pip install --quiet --disable-pip-version-check -r "$req"
        echo "$want" >"$stamp"
    fi
}
