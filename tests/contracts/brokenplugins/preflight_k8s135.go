//go:build k8s135

package broken

import (
	"context"

	v1 "k8s.io/api/core/v1"
	fwk "k8s.io/kube-scheduler/framework"
)

func (*PreBind) PreBindPreFlight(context.Context, fwk.CycleState, *v1.Pod, string) *fwk.Status {
	return nil
}

func (*BindingLeak) PreBindPreFlight(context.Context, fwk.CycleState, *v1.Pod, string) *fwk.Status {
	return nil
}
