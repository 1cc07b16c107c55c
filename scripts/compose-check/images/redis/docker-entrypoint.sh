#!/bin/sh
set -eu
if [ "${1#-}" != "$1" ]; then set -- redis-server "$@"; fi
if [ "$1" = redis-server ]; then
  if [ "$(id -u)" = 0 ]; then
    chown -R redis:redis .
    exec setpriv --reuid=redis --regid=redis --init-groups "$0" "$@"
  fi
  set -- "$@" --protected-mode no
fi
exec "$@"
