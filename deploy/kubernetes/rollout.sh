#!/bin/sh
# Deploys a release in the safe order: the database migrations first, the API and workers after.
#   deploy/kubernetes/rollout.sh [overlay folder]     (default: deploy/kubernetes/overlays/production)
# 1. the Namespace and ConfigMaps;  2. the migration Job of this release, alone (the previous
# Job is deleted first: a Job's pod template cannot change);  3. wait until it has completed,
# and stop here with its logs if it failed;  4. everything else;  5. wait for both rollouts.
# The Secret insp-secrets must exist (docs/kubernetes.md). Needs only kubectl.
# MIGRATE_WAIT_SECONDS (900) bounds step 3, ROLLOUT_TIMEOUT (10m) each rollout of step 5.
set -eu

overlay=${1:-deploy/kubernetes/overlays/production}
rollout_timeout=${ROLLOUT_TIMEOUT:-10m}
migrate_wait=${MIGRATE_WAIT_SECONDS:-900}
component=app.kubernetes.io/component

echo "==> namespace and settings"
kubectl apply -k "$overlay" -l "$component in (namespace,config)"

echo "==> migrations"
kubectl delete -k "$overlay" -l "$component=migrate" --ignore-not-found --wait=true
kubectl apply -k "$overlay" -l "$component=migrate"
namespace=$(kubectl get -k "$overlay" -l "$component=migrate" -o jsonpath='{.items[0].metadata.namespace}')
deadline=$(( $(date +%s) + migrate_wait ))
while :; do
  state=$(kubectl get -k "$overlay" -l "$component=migrate" -o jsonpath='{.items[0].status.conditions[?(@.status=="True")].type}')
  case " $state " in
    *" Complete "*) break ;;
    *" Failed "*)
      echo "migration failed; its logs:" >&2
      kubectl -n "$namespace" logs job/insp-migrate --all-containers --tail=100 >&2 || true
      exit 1 ;;
  esac
  if [ "$(date +%s)" -ge "$deadline" ]; then
    echo "migration still running after $migrate_wait s; nothing else was applied" >&2
    exit 1
  fi
  sleep 2
done
echo "migrations applied"

echo "==> API and workers"
kubectl apply -k "$overlay"
kubectl -n "$namespace" rollout status deployment/insp-api --timeout="$rollout_timeout"
kubectl -n "$namespace" rollout status deployment/insp-worker --timeout="$rollout_timeout"
