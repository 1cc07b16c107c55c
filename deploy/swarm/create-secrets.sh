#!/usr/bin/env bash
# The Swarm secrets deploy/swarm/agentloom.yml reads, created once on a manager (docs/operating.md,
# "Beyond one machine"). Random values, except what you pass for managed services:
#   DATABASE_URL=postgresql://user:pass@db.example.com:5432/agentloom     your Postgres
#   S3_ACCESS_KEY_ID=… S3_SECRET_ACCESS_KEY=…                              your bucket's keys
#   VAULT_MASTER_KEY=…  JWT_SECRET=…                                       keys you already have
# A secret that exists is kept (a changed VAULT_MASTER_KEY would make stored keys unreadable):
# rotate one by creating a new secret and `docker service update --secret-rm/--secret-add`.
# Needs only the docker CLI of a manager (DOCKER_HOST may name it) and coreutils.
set -euo pipefail

random_hex() { od -An -tx1 -N"$1" /dev/urandom | tr -d ' \n'; }

exists() { docker secret inspect "agentloom_$1" >/dev/null 2>&1; }

create() {
  local name=agentloom_$1 value=$2
  if exists "$1"; then
    echo "  $name: exists, kept"
  else
    printf '%s' "$value" | docker secret create "$name" - >/dev/null
    echo "  $name: created"
  fi
}

# The bundled Postgres's password and the URL the apps use must agree: made together, or not at all.
if { exists postgres_password && ! exists database_url; } ||
  { ! exists postgres_password && exists database_url; }; then
  echo "agentloom_postgres_password and agentloom_database_url go together: remove the one that exists, or create the other by hand." >&2
  exit 1
fi
postgres_password=$(random_hex 24)
create postgres_password "$postgres_password"
create database_url "${DATABASE_URL:-postgresql://postgres:$postgres_password@postgres:5432/agentloom}"
create jwt_secret "${JWT_SECRET:-$(random_hex 48)}"
if ! exists vault_master_key && [ -z "${VAULT_MASTER_KEY:-}" ]; then
  VAULT_MASTER_KEY=$(head -c 32 /dev/urandom | base64)
  # Shown once: Swarm never gives a secret's value back, and without it a restored database's
  # stored keys cannot be decrypted.
  echo "VAULT_MASTER_KEY=$VAULT_MASTER_KEY   <- store this in your password manager now" >&2
fi
create vault_master_key "${VAULT_MASTER_KEY:-}"
create runtime_shared_secret "${RUNTIME_SHARED_SECRET:-$(random_hex 32)}"
create s3_access_key_id "${S3_ACCESS_KEY_ID:-agentloom-$(random_hex 6)}"
create s3_secret_access_key "${S3_SECRET_ACCESS_KEY:-$(random_hex 24)}"
create metrics_token "${METRICS_TOKEN:-$(random_hex 24)}"
