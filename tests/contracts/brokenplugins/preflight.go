//go:build !k8s135

package broken

import (
	"context"

	v1 "k8s.io/api/core/v1"
	fwk "k8s.io/kube-scheduler/framework"
)

// PreBindPreFlight returns a result besides since v1.36 (preflight_k8s135.go has v1.35's).
func (*PreBind) PreBindPreFlight(context.Context, fwk.CycleState, *v1.Pod, string) (*fwk.PreBindPreFlightResult, *fwk.Status) {
	return nil, nil
}

func (*BindingLeak) PreBindPreFlight(context.Context, fwk.CycleState, *v1.Pod, string) (*fwk.PreBindPreFlightResult, *fwk.Status) {
	return nil, nil
}
