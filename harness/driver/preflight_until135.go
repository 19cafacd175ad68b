//go:build k8s134 || k8s135

package driver

import (
	"context"

	v1 "k8s.io/api/core/v1"

	"github.com/kube-scheduler-conformance/harness/fwk"
)

func preFlight(ctx context.Context, pl fwk.PreBindPlugin, st fwk.CycleState, pod *v1.Pod, node string) *fwk.Status {
	return pl.PreBindPreFlight(ctx, st, pod, node)
}
