#!/usr/bin/env bash
# Two Docker engines in network namespaces of their own, the "nodes" of the swarm check
# (scripts/swarm-check/run.sh, docs/operating.md "Beyond one machine"):
#
#   root namespace ── alsw0 198.18.77.254/24 (a bridge: the check's own "switch")
#                        ├── veth ── alsw-n1: eth0 198.18.77.1/24   dockerd n1 (manager, data)
#                        └── veth ── alsw-n2: eth0 198.18.77.2/24   dockerd n2 (worker)
#
# 198.18.0.0/15 is reserved for benchmarking networks, so it meets nothing of the machine's; the
# engines' own networks come from it too (bridges 198.19.128.0/18, swarm overlays 198.19.0.0/18,
# run.sh). Each
# engine is `nsenter --net=… dockerd` (not `ip netns exec`, which remounts /sys and hides the
# cgroup mounts from dockerd), without iptables or a default bridge: the machine's own network
# is left alone. Each engine and its containers run in cgroups of their own, so `kill` ends all
# of that engine's processes at once, as a lost machine would.
#
#   engines.sh up            namespaces, bridge and both engines (idempotent)
#   engines.sh start NODE    (re)start one engine, e.g. after kill
#   engines.sh kill NODE     SIGKILL the engine and every process of its containers
#   engines.sh down          both engines stopped, namespaces and bridge removed
#   engines.sh host NODE     prints the engine's DOCKER_HOST
#
# Engine data (images, volumes) is kept in /var/cache/agentloom/swarm/NODE between runs: images
# loaded once stay. Swarm state and volumes are reset by run.sh.
set -euo pipefail

state=/var/cache/agentloom/swarm
run=/run/agentloom-swarm
bridge=alsw0
subnet=198.18.77
nodes=(n1 n2)

address() { case $1 in n1) echo "$subnet.1" ;; n2) echo "$subnet.2" ;; *) return 1 ;; esac; }
netns() { echo "agentloom-swarm-$1"; }
sock() { echo "$run/$1/docker.sock"; }
host() { echo "unix://$(sock "$1")"; }
cgroup() { echo "agentloom-swarm-$1"; }
# Where an engine's processes are found: cgroup v2's one tree, or v1's pids hierarchy (which
# needs no settings before a process joins, unlike cpuset). Containers land there too, under
# --cgroup-parent, in every hierarchy.
hierarchies() {
  if [ -f /sys/fs/cgroup/cgroup.controllers ]; then echo /sys/fs/cgroup; else echo /sys/fs/cgroup/pids; fi
}

network_up() {
  ip link show "$bridge" >/dev/null 2>&1 || {
    ip link add "$bridge" type bridge
    ip addr add "$subnet.254/24" dev "$bridge"
    ip link set "$bridge" up
  }
  for node in "${nodes[@]}"; do
    local ns
    ns=$(netns "$node")
    ip netns list | grep -qw "$ns" || ip netns add "$ns"
    ip link show "alsw-$node" >/dev/null 2>&1 && continue
    ip link add "alsw-$node" type veth peer name eth0 netns "$ns"
    ip link set "alsw-$node" master "$bridge" up
    ip -n "$ns" addr add "$(address "$node")/24" dev eth0
    ip -n "$ns" link set eth0 up
    ip -n "$ns" link set lo up
  done
}

start() {
  local node=$1
  if docker -H "$(host "$node")" info >/dev/null 2>&1; then return 0; fi
  mkdir -p "$state/$node" "$run/$node"
  # The engine (and so containerd and every container shim it starts) in cgroups of its own.
  local pidfile=$run/$node/dockerd.pid
  rm -f "$pidfile" "$(sock "$node")"
  (
    for hierarchy in $(hierarchies); do
      mkdir -p "$hierarchy/$(cgroup "$node")/engine"
      echo "$BASHPID" >"$hierarchy/$(cgroup "$node")/engine/cgroup.procs"
    done
    # A host name of its own (a UTS namespace), which `docker node ls` and `service ps` show.
    exec nsenter --net="/var/run/netns/$(netns "$node")" unshare --uts -- \
      sh -c 'hostname "$0" && exec "$@"' "agentloom-$node" dockerd \
      --iptables=false --ip6tables=false --bridge=none --ip-masq=false \
      -H "$(host "$node")" --data-root "$state/$node" --exec-root "$run/$node/exec" \
      --pidfile "$pidfile" --cgroup-parent "/$(cgroup "$node")/containers" \
      --exec-opt native.cgroupdriver=cgroupfs --userland-proxy=true \
      --default-address-pool base=198.19.128.0/18,size=24 \
      --log-level warn
  ) >"$run/$node/dockerd.log" 2>&1 &
  for _ in $(seq 1 60); do
    docker -H "$(host "$node")" info >/dev/null 2>&1 && return 0
    sleep 0.5
  done
  tail -n 30 "$run/$node/dockerd.log" >&2
  return 1
}

# Every process in the engine's cgroups: dockerd, containerd, the shims and the containers.
engine_pids() {
  local node=$1 hierarchy
  for hierarchy in $(hierarchies); do
    [ -d "$hierarchy/$(cgroup "$node")" ] || continue
    find "$hierarchy/$(cgroup "$node")" -name cgroup.procs -exec cat {} + 2>/dev/null
  done | sort -u
}

kill_engine() {
  local node=$1 pids
  for _ in 1 2 3 4 5; do
    pids=$(engine_pids "$node")
    [ -z "$pids" ] && return 0
    # shellcheck disable=SC2086 # one pid a word
    kill -9 $pids 2>/dev/null || true
    sleep 0.5
  done
  pids=$(engine_pids "$node")
  [ -z "$pids" ] || { echo "engine $node: processes left: $pids" >&2; return 1; }
}

down() {
  for node in "${nodes[@]}"; do
    if docker -H "$(host "$node")" info >/dev/null 2>&1; then
      # A clean stop first (containers stopped by the engine), then whatever is left.
      local pid
      pid=$(cat "$run/$node/dockerd.pid" 2>/dev/null || true)
      [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
      for _ in $(seq 1 40); do
        [ -z "$pid" ] || ! kill -0 "$pid" 2>/dev/null && break
        sleep 0.5
      done
    fi
    kill_engine "$node" || true
    # Mounts the engine leaves: under its exec root (network namespaces of containers), and its
    # data root, which dockerd mounts on itself (the images stay in the folder for the next run).
    { grep -oE " ($run|$state)/$node(/[^ ]*)?" /proc/mounts || true; } | sort -r | while read -r mount; do
      umount -l "$mount" 2>/dev/null || true
    done
    for hierarchy in $(hierarchies); do
      [ -d "$hierarchy/$(cgroup "$node")" ] &&
        find "$hierarchy/$(cgroup "$node")" -depth -type d -exec rmdir {} \; 2>/dev/null || true
    done
    ip link del "alsw-$node" 2>/dev/null || true
    ip netns del "$(netns "$node")" 2>/dev/null || true
  done
  ip link del "$bridge" 2>/dev/null || true
  rm -rf "$run"
}

case ${1:-} in
  up)
    network_up
    for node in "${nodes[@]}"; do start "$node"; done
    ;;
  start) start "$2" ;;
  kill) kill_engine "$2" ;;
  down) down ;;
  host) host "$2" ;;
  *)
    echo "usage: $0 up | start NODE | kill NODE | down | host NODE" >&2
    exit 2
    ;;
esac
