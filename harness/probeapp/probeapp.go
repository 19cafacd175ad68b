// Package probeapp adds the probe plugins to a kube-scheduler command, for
// users who ship their own main:
//
//	command := app.NewSchedulerCommand(append(myOptions, probeapp.Options()...)...)
//
// The probes then exist in that binary under the names Probe0..Probe7; a
// KubeSchedulerConfiguration enables them like any plugin, with args
// `collector: URL` so that their trace reaches the suite (docs/probes.md).
package probeapp

import (
	"k8s.io/kubernetes/cmd/kube-scheduler/app"

	"github.com/kube-scheduler-conformance/harness/probe"
)

// Options registers Probe0..Probe7, sharing one recorder.
func Options() []app.Option {
	rec := probe.NewRecorder()
	opts := make([]app.Option, 0, len(probe.Names))
	for _, name := range probe.Names {
		opts = append(opts, app.WithPlugin(name, probe.Factory(name, rec)))
	}
	return opts
}
