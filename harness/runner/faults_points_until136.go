//go:build k8s134 || k8s135 || k8s136

package runner

import "fmt"

// Vanish and restart faults wrap v1.37's framework (faults_points.go); older
// releases refuse them before anything starts.
func pointFaultsSupported(objs *objects) error {
	for _, ev := range objs.timeline {
		if ev.fault != nil && ev.fault.point != "" {
			return fmt.Errorf("scenario.timeline[%d]: %s faults need a runner built for Kubernetes v1.37 or later; "+
				"use fail and lag faults only, or build the runner for v1.37", ev.index, ev.fault.op)
		}
	}
	return nil
}

func faultOps() []string { return []string{"fail", "lag"} }

func (rn *run) hookPoints(*incarnation) {}

func (rn *run) hookPreemption(*incarnation) error { return nil }
