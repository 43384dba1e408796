# Sourced by scripts/test and scripts/postgres (bash): a throwaway PostgreSQL cluster.
# start_postgres: initdb in a temporary folder as an unprivileged user, start it on a free local
# port (127.0.0.1 only, trust auth: nothing else can reach it), export CONCLAVE_TEST_PG with its
# URL and PG_TMP with its folder. stop_postgres stops it and removes the folder.
# When the binaries are missing it installs them with apt-get (root on Debian/Ubuntu) if it can.
# Returns 1 (with the reason on stderr) when no cluster could be started.

_pg_bindir() {
    local dir
    for dir in "$(pg_config --bindir 2>/dev/null)" /usr/lib/postgresql/*/bin /usr/local/bin /usr/bin; do
        if [ -n "$dir" ] && [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ]; then
            echo "$dir"
            return 0
        fi
    done
    return 1
}

_pg_install() {
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "PostgreSQL is missing: installing it with apt-get..." >&2
        { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql; } >&2
    else
        return 1
    fi
}

start_postgres() {
    local bindir user port
    bindir="$(_pg_bindir)" || { _pg_install && bindir="$(_pg_bindir)"; } || {
        echo "PostgreSQL's initdb and pg_ctl were not found (and could not be installed)." >&2
        return 1
    }
    PG_TMP="$(mktemp -d "${TMPDIR:-/tmp}/conclave-pg.XXXXXX")"
    user="$(id -un)"
    if [ "$(id -u)" = 0 ]; then
        # PostgreSQL refuses to run as root: the cluster belongs to an unprivileged user.
        user=postgres
        id "$user" >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin "$user"
        chown "$user" "$PG_TMP"
    fi
    # Known before anything starts, so stop_postgres can stop the cluster at any point.
    PG_CTL="$bindir/pg_ctl"
    PG_USER="$user"
    port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    _pg_as() { if [ "$(id -u)" = 0 ]; then runuser -u "$user" -- "$@"; else "$@"; fi; }
    if ! _pg_as "$bindir/initdb" -D "$PG_TMP/data" -U conclave -A trust -E UTF8 --no-sync >"$PG_TMP/initdb.log" 2>&1; then
        echo "initdb failed (see $PG_TMP/initdb.log)." >&2
        return 1
    fi
    # A test cluster: speed over durability (the tests never cut the power).
    if ! _pg_as "$bindir/pg_ctl" -D "$PG_TMP/data" -l "$PG_TMP/server.log" -w -t 60 start -o \
        "-h 127.0.0.1 -p $port -k $PG_TMP -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300" \
        >/dev/null 2>&1; then
        echo "PostgreSQL did not start (see $PG_TMP/server.log)." >&2
        return 1
    fi
    export CONCLAVE_TEST_PG="postgresql://conclave@127.0.0.1:$port/postgres"
    export PG_TMP
}

stop_postgres() {
    [ -n "${PG_TMP:-}" ] || return 0
    if [ -d "$PG_TMP/data" ]; then
        if [ "$(id -u)" = 0 ]; then
            runuser -u "$PG_USER" -- "$PG_CTL" -D "$PG_TMP/data" -m fast stop >/dev/null 2>&1 || true
        else
            "$PG_CTL" -D "$PG_TMP/data" -m fast stop >/dev/null 2>&1 || true
        fi
    fi
    rm -rf "$PG_TMP"
    PG_TMP=""
}
