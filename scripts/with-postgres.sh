#!/usr/bin/env bash
# Runs CMD against a throwaway PostgreSQL cluster, then stops the cluster and removes it:
#
#     scripts/with-postgres.sh swift test --filter SurveyResponsesTests
#
# The cluster lives in a fresh `mktemp -d` directory (data/ and socket/), listens only on a Unix
# socket there (no TCP port), trusts local connections and has a database `survey_test`. CMD runs
# with SURVEY_TEST_POSTGRES_URL=postgresql:///survey_test?host=DIR/socket&user=postgres exported.
# PostgreSQL runs as an unprivileged user: the invoking user, or, when run as root, `postgres`
# (or a system user `survey-pg` created for it). When PostgreSQL is missing, Debian's `postgresql`
# package is installed first. Needs no terminal (CI=true, no stdin); exits with CMD's status.
set -euo pipefail

if [ $# -eq 0 ]; then
    echo "usage: $0 CMD [ARG...]" >&2
    exit 2
fi

find_bindir() {
    local dir
    for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
        if [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ]; then
            echo "$dir"
            return 0
        fi
    done
    return 1
}

if ! bindir=$(find_bindir); then
    echo "with-postgres: PostgreSQL is not installed; installing Debian's postgresql" >&2
    sudo=()
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null 2>&1 || { echo "with-postgres: need root or sudo to install postgresql" >&2; exit 1; }
        sudo=(sudo -n)
    fi
    export DEBIAN_FRONTEND=noninteractive
    "${sudo[@]}" apt-get update -qq </dev/null
    "${sudo[@]}" apt-get install -y -qq --no-install-recommends postgresql </dev/null >/dev/null
    bindir=$(find_bindir) || { echo "with-postgres: no initdb/pg_ctl under /usr/lib/postgresql after installing" >&2; exit 1; }
fi

dir=$(mktemp -d /tmp/survey-pg.XXXXXX)
data="$dir/data"
socket="$dir/socket"
started=false

if [ "$(id -u)" -eq 0 ]; then
    if id -u postgres >/dev/null 2>&1; then
        pg_user=postgres
    else
        pg_user=survey-pg
        id -u "$pg_user" >/dev/null 2>&1 \
            || useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin "$pg_user"
    fi
    # Run from the cluster's directory: the server user may not be allowed into the caller's.
    as_server() { (cd "$dir" && runuser -u "$pg_user" -- "$@"); }
else
    pg_user=$(id -un)
    as_server() { (cd "$dir" && "$@"); }
fi

cleanup() {
    local status=$?
    trap - EXIT INT TERM
    if [ "$started" = true ]; then
        as_server "$bindir/pg_ctl" -D "$data" -m fast -w -t 60 stop >/dev/null 2>&1 \
            || as_server "$bindir/pg_ctl" -D "$data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

mkdir "$data" "$socket"
chmod 700 "$data"
chmod 755 "$dir" "$socket"
if [ "$(id -u)" -eq 0 ]; then chown "$pg_user" "$data" "$socket"; fi

# Variables that would send the server or the clients elsewhere.
unset PGPORT PGHOST PGHOSTADDR PGSERVICE PGSERVICEFILE PGOPTIONS PGDATABASE PGUSER PGPASSWORD

if ! as_server "$bindir/initdb" -D "$data" -U postgres -A trust -E UTF8 --locale=C --no-sync \
    </dev/null >"$dir/initdb.log" 2>&1; then
    echo "with-postgres: initdb failed:" >&2
    cat "$dir/initdb.log" >&2
    exit 1
fi
started=true
if ! as_server "$bindir/pg_ctl" -D "$data" -l "$data/server.log" -w -t 60 \
    -o "-c listen_addresses='' -c unix_socket_directories='$socket'" start </dev/null >/dev/null 2>&1; then
    echo "with-postgres: the server did not start:" >&2
    cat "$data/server.log" >&2 || true
    exit 1
fi
as_server "$bindir/createdb" -h "$socket" -U postgres survey_test </dev/null

export SURVEY_TEST_POSTGRES_URL="postgresql:///survey_test?host=$socket&user=postgres"
echo "with-postgres: PostgreSQL $("$bindir/pg_ctl" --version | awk '{print $3}') in $dir, socket $socket, as $pg_user: SURVEY_TEST_POSTGRES_URL=$SURVEY_TEST_POSTGRES_URL" >&2

set +e
"$@"
status=$?
set -e
exit "$status"
