#!/usr/bin/env bash
# The swarm check (.ci/run, docs/operating.md "Beyond one machine"): deploy/swarm/agentloom.yml
# deployed with `docker stack deploy` on a swarm of two real Docker engines, each in a network
# namespace of its own (engines.sh), with the images the compose check built on this machine's
# engine, then driven through the web origin (flow.mjs). Prints the time of each phase.
#
# Run it after scripts/compose-check/run.sh (it reuses that check's images: the product's,
# agentloom-ci_*, and the base-image stand-ins). Needs root (namespaces, dockerd), iproute2,
# util-linux (nsenter, unshare), docker.io, and the repo installed and built (flow.mjs imports
# @agentloom/test-kit).
set -euo pipefail
cd "$(dirname "$0")/../.."
here=$PWD/scripts/swarm-check
engines=$here/engines.sh
STACK=agentloom
export SWARM_N1_HOST SWARM_N2_HOST
SWARM_N1_HOST=$(bash "$engines" host n1)
SWARM_N2_HOST=$(bash "$engines" host n2)
export SWARM_CHECK_TIMES
SWARM_CHECK_TIMES=$(mktemp /tmp/agentloom-swarm-times.XXXXXX)

d1() { docker -H "$SWARM_N1_HOST" "$@"; }
d2() { docker -H "$SWARM_N2_HOST" "$@"; }

phase_name=""
phase_start=$SECONDS
phase() {
  [ -n "$phase_name" ] && printf '%s\t%s\n' "$((SECONDS - phase_start))" "$phase_name" >>"$SWARM_CHECK_TIMES"
  phase_name=$1
  phase_start=$SECONDS
  [ -n "$phase_name" ] && printf '\n--- swarm check: %s (%ss)\n' "$phase_name" "$SECONDS"
  return 0
}

# ---- what the compose check left ----------------------------------------------------------------
# The product's images as docker-compose v1 names them (<project>_<service>), and the stand-ins
# of the third-party images the stack names (postgres, redis, minio, mc), by the stack's own tags.
stack_image() { awk -v key="$1" '$1 == "image:" && $2 ~ key { print $2; exit }' deploy/swarm/agentloom.yml; }
app_images=(gateway builder-worker web)
data_images=("$(stack_image '^postgres:')" "$(stack_image '^redis:')" "$(stack_image '^minio/minio:')" "$(stack_image '^minio/mc:')")
for image in "${app_images[@]/#/agentloom-ci_}" "${data_images[@]}"; do
  docker image inspect "$image" >/dev/null 2>&1 ||
    { echo "swarm check: image $image is missing: run scripts/compose-check/run.sh first" >&2; exit 1; }
done

# An engine as a run finds it: out of any swarm, no container, no volume of an earlier run (its
# images stay, for the next run), and no docker_gwbridge, which the swarm makes again from this
# run's address pool (engines.sh).
reset_engine() {
  local d
  d="docker -H $(bash "$engines" host "$1")"
  $d swarm leave --force >/dev/null 2>&1 || true
  # shellcheck disable=SC2046 # one id a word
  $d rm -f $($d ps -aq) >/dev/null 2>&1 || true
  $d volume prune -f >/dev/null 2>&1 || true
  $d network rm docker_gwbridge >/dev/null 2>&1 || true
}

cleanup() {
  local status=$?
  phase "clean up: stack, swarm, volumes, engines, namespaces"
  if d1 info >/dev/null 2>&1; then
    d1 stack rm "$STACK" >/dev/null 2>&1 || true
  fi
  for node in n1 n2; do
    docker -H "$(bash "$engines" host "$node")" info >/dev/null 2>&1 && reset_engine "$node"
  done
  bash "$engines" down
  phase ""
  echo
  echo "swarm check, seconds per phase:"
  while IFS=$'\t' read -r seconds name; do printf '  %5.0f  %s\n' "$seconds" "$name"; done <"$SWARM_CHECK_TIMES"
  printf '  %5d  total\n' "$SECONDS"
  rm -f "$SWARM_CHECK_TIMES"
  exit "$status"
}
trap cleanup EXIT

phase "two engines in network namespaces"
bash "$engines" down >/dev/null 2>&1 || true
bash "$engines" up
for node in n1 n2; do reset_engine "$node"; done
echo "  agentloom-n1 198.18.77.1 and agentloom-n2 198.18.77.2: $(d1 version -f '{{.Server.Version}}')"

# ---- images: docker save | docker load, only what an engine lacks ------------------------------
phase "images into both engines (docker save | docker load)"
# load NODE SOURCE=TAG…: each image the engine does not have yet (by id) goes over in one stream;
# every image is then tagged as the stack names it.
load() {
  local node=$1 d missing=() pair
  d="docker -H $(bash "$engines" host "$node")"
  shift
  for pair in "$@"; do
    local id
    id=$(docker image inspect -f '{{.Id}}' "${pair%%=*}")
    $d image inspect "$id" >/dev/null 2>&1 || missing+=("${pair%%=*}")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "  $node: loading ${missing[*]}"
    docker save "${missing[@]}" | $d load -q >/dev/null
  else
    echo "  $node: has every image already"
  fi
  for pair in "$@"; do $d tag "$(docker image inspect -f '{{.Id}}' "${pair%%=*}")" "${pair#*=}"; done
  # Images of earlier runs that nothing names any more.
  $d image prune -f >/dev/null
}
export AGENTLOOM_IMAGE=agentloom-ci AGENTLOOM_VERSION=swarm
apps=()
for app in "${app_images[@]}"; do apps+=("agentloom-ci_$app=$AGENTLOOM_IMAGE/$app:$AGENTLOOM_VERSION"); done
datas=()
for image in "${data_images[@]}"; do datas+=("$image=$image"); done
# Both engines at once; the data services (and the provider stand-in) run on agentloom-n1 only.
load n2 "${apps[@]}" &
loading=$!
load n1 "${apps[@]}" "${datas[@]}"
wait "$loading"

phase "swarm init and join, the data node's label, secrets"
d1 swarm init --advertise-addr 198.18.77.1 --default-addr-pool 198.19.0.0/18 \
  --default-addr-pool-mask-length 24 >/dev/null
d2 swarm join --token "$(d1 swarm join-token -q worker)" 198.18.77.1:2377 >/dev/null
d1 node update --label-add agentloom.data=true agentloom-n1 >/dev/null
d1 node ls
# The operator's script, with a vault key of this run (so nothing is printed).
DOCKER_HOST=$SWARM_N1_HOST VAULT_MASTER_KEY=$(head -c 32 /dev/urandom | base64) \
  bash deploy/swarm/create-secrets.sh

phase "docker stack deploy, until every service runs (healthy)"
# Only what the stack file reads, so nothing of this shell's environment leaks into the stack.
env -i PATH="$PATH" HOME="$HOME" DOCKER_HOST="$SWARM_N1_HOST" \
  AGENTLOOM_IMAGE="$AGENTLOOM_IMAGE" AGENTLOOM_VERSION="$AGENTLOOM_VERSION" \
  AGENTLOOM_ENDPOINT_MODE=dnsrr AGENTLOOM_SUBNET=198.19.100.0/24 \
  PUBLIC_URL=http://198.18.77.1:28173 WEB_PORT=28173 SMTP_HOST=127.0.0.1 \
  SWARM_CHECK_DIR="$here" \
  docker stack deploy --resolve-image never --detach=true \
  -c deploy/swarm/agentloom.yml -c "$here/stack.ci.yml" "$STACK"
converged() {
  d1 service ls --format '{{.Name}} {{.Replicas}}' | awk '
    { split($2, r, "/"); if ($0 ~ /completed\)/) { if ($0 !~ /\(1\/1 completed\)/) bad++ }
      else if (r[1] != r[2] || r[2] == 0) bad++ }
    END { exit bad > 0 }'
}
deadline=$((SECONDS + 360))
until converged; do
  if [ $SECONDS -gt $deadline ]; then
    d1 service ls
    d1 service ps --no-trunc --format '{{.Name}} {{.Node}} {{.CurrentState}} {{.Error}}' \
      $(d1 service ls -q) | head -60
    for service in gateway agent-runtime builder-worker web; do
      echo "--- $service"; d1 service logs --tail 15 --raw "${STACK}_$service" 2>&1 | tail -15
    done
    echo "swarm check: the stack did not converge in 360 s" >&2
    exit 1
  fi
  sleep 3
done
d1 service ls

# The web tasks' nginx resolves the gateway's name when it starts, and in dnsrr mode (no IPVS
# here) that name is the gateway tasks' own addresses: restarted now that every gateway runs, so
# each knows them all (docs/operating.md, "Beyond one machine").
phase "restart the web tasks (dnsrr: nginx learns every gateway)"
d1 service update --force --detach=false "${STACK}_web" >/dev/null
until converged; do sleep 2; done

phase ""
node "$here/flow.mjs"
