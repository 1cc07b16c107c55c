#!/bin/sh
# The real image's first start, in short: as root, hand PGDATA to postgres and start again as it;
# on an empty PGDATA run initdb (POSTGRES_USER, POSTGRES_PASSWORD or _FILE, POSTGRES_HOST_AUTH_METHOD),
# create POSTGRES_DB, listen on every address; then run the server in the foreground.
set -eu
if [ "${1#-}" != "$1" ]; then set -- postgres "$@"; fi
if [ "$1" != postgres ]; then exec "$@"; fi
if [ "$(id -u)" = 0 ]; then
  mkdir -p "$PGDATA"
  chown -R postgres:postgres "$PGDATA" /var/run/postgresql
  chmod 700 "$PGDATA"
  exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
fi
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  user=${POSTGRES_USER:-postgres}
  password=${POSTGRES_PASSWORD:-}
  # The real image's file_env: the password from a file (a Swarm secret, deploy/swarm/).
  if [ -n "${POSTGRES_PASSWORD_FILE:-}" ]; then password=$(cat "$POSTGRES_PASSWORD_FILE"); fi
  if [ -z "$password" ] && [ "${POSTGRES_HOST_AUTH_METHOD:-}" != trust ]; then
    echo 'Error: Database is uninitialized and superuser password is not specified.' >&2
    echo '       Set POSTGRES_PASSWORD, or POSTGRES_HOST_AUTH_METHOD=trust.' >&2
    exit 1
  fi
  auth=${POSTGRES_HOST_AUTH_METHOD:-scram-sha-256}
  pwfile=$(mktemp)
  printf '%s\n' "$password" >"$pwfile"
  if [ -n "$password" ]; then pwopt="--pwfile=$pwfile"; else pwopt=""; fi
  initdb --username="$user" $pwopt --encoding=UTF8 --locale=C.UTF-8 -D "$PGDATA" >/dev/null
  rm -f "$pwfile"
  echo "host all all all $auth" >>"$PGDATA/pg_hba.conf"
  echo "listen_addresses = '*'" >>"$PGDATA/postgresql.conf"
  db=${POSTGRES_DB:-$user}
  if [ "$db" != postgres ]; then
    pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
    createdb --username="$user" "$db"
    pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
  fi
  echo 'PostgreSQL init process complete; ready for start up.'
fi
exec "$@"
