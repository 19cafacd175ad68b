//go:build k8s135 || k8s136

package broken

import fwk "k8s.io/kube-scheduler/framework"

func (Sort) Less(a, b fwk.QueuedPodInfo) bool { return priority(a) >= priority(b) }

func priority(p fwk.QueuedPodInfo) int32 {
	if pr := p.GetPodInfo().GetPod().Spec.Priority; pr != nil {
		return *pr
	}
	return 0
}
