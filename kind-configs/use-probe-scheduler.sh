#!/usr/bin/env bash
# Point a kind cluster's static kube-scheduler pod at the probe image loaded with `kind load`.
# The kubelet notices the changed manifest and restarts the scheduler with the new image.
set -euo pipefail
cluster=${1:-sched-conformance-probes}
image=${2:-sched-conformance/kube-scheduler:v1.37.2-probes}
node="${cluster}-control-plane"
manifest=/etc/kubernetes/manifests/kube-scheduler.yaml
docker exec "$node" sed -i -E "s#^(\s*image:).*#\1 ${image}#; s#^(\s*imagePullPolicy:).*#\1 Never#" "$manifest"
docker exec "$node" grep -E 'image(PullPolicy)?:' "$manifest"
echo "waiting for the scheduler pod to run ${image}"
for _ in $(seq 60); do
  if kubectl --context "kind-${cluster}" -n kube-system get pods -l component=kube-scheduler \
       -o jsonpath='{.items[0].spec.containers[0].image}{" "}{.items[0].status.phase}' 2>/dev/null \
       | grep -q "^${image} Running"; then
    echo "kube-scheduler runs ${image}"; exit 0
  fi
  sleep 2
done
echo "the scheduler pod did not come up with ${image}; see: docker exec ${node} crictl ps -a" >&2
exit 1
