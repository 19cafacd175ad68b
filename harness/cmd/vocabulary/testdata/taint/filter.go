// A Filter plugin reading its own taint.
package taint

import (
	"context"

	v1 "k8s.io/api/core/v1"
	fwk "k8s.io/kube-scheduler/framework"
)

const dedicatedKey = "example.com/dedicated"

var gpuToleration = v1.Toleration{Key: dedicatedKey, Operator: v1.TolerationOpEqual, Value: "gpu"}

type Dedicated struct{}

func (Dedicated) Filter(_ context.Context, _ fwk.CycleState, pod *v1.Pod, n fwk.NodeInfo) *fwk.Status {
	for _, t := range n.Node().Spec.Taints {
		if t.Key == dedicatedKey && t.Value == "fpga" {
			return fwk.NewStatus(fwk.Unschedulable, "fpga nodes are reserved")
		}
	}
	for i := range pod.Spec.Tolerations {
		if tolerates(&pod.Spec.Tolerations[i]) {
			return nil
		}
	}
	return nil
}

func tolerates(tol *v1.Toleration) bool {
	return tol.Key == "example.com/maintenance"
}

var extraTaints = []v1.Taint{{Key: "example.com/spot", Value: "true", Effect: v1.TaintEffectNoSchedule}}
