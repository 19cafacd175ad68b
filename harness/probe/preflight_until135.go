//go:build k8s134 || k8s135

package probe

import (
	"context"

	v1 "k8s.io/api/core/v1"

	"github.com/kube-scheduler-conformance/harness/fwk"
)

// PreBindPreFlight up to v1.35 returns only a status.

// PreBindPreFlight answers and records as the pod's script says.
func (p *Probe) PreBindPreFlight(_ context.Context, state fwk.CycleState, pod *v1.Pod, nodeName string) *fwk.Status {
	return p.simple("PreBindPreFlight", state, pod, nodeName)
}

// PreBindPreFlight calls the plugin's PreBindPreFlight and records it.
func (w *preBindObserved) PreBindPreFlight(ctx context.Context, state fwk.CycleState, pod *v1.Pod, node string) *fwk.Status {
	s := w.pl.PreBindPreFlight(ctx, state, pod, node)
	w.done("PreBindPreFlight", state, pod, node, s)
	return s
}
