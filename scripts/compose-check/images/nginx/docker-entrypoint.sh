#!/bin/sh
# The real image's 20-envsubst-on-templates.sh: every /etc/nginx/templates/**/*.template becomes
# /etc/nginx/conf.d/** without the suffix, with only the defined environment variables replaced
# (nginx's own $uri and the like stay).
set -eu
if [ "$1" = nginx ] || [ "$1" = nginx-debug ]; then
  defined_envs=$(printf '${%s} ' $(awk 'END { for (name in ENVIRON) print name }' </dev/null))
  if [ -d /etc/nginx/templates ]; then
    find /etc/nginx/templates -follow -type f -name '*.template' | while read -r template; do
      relative=${template#/etc/nginx/templates/}
      output=/etc/nginx/conf.d/${relative%.template}
      mkdir -p "$(dirname "$output")"
      envsubst "$defined_envs" <"$template" >"$output"
      echo "$0: Running envsubst on $template to $output"
    done
  fi
fi
exec "$@"
