// Package freecpu is the example module's deliberately broken plugin, the red
// half of docs/own-scheduler.md: it prefers nodes with more free CPU, but
// returns the free milli-CPU divided by 50 as is. The framework requires
// scores in [0, 100] once normalized, and this plugin has no NormalizeScore,
// so on a node with more than 5 free CPUs the scheduling cycle fails with an
// error. The suite reports it as observed-score-range, naming FreeCPU.
package freecpu

import (
	"context"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	fwk "k8s.io/kube-scheduler/framework"
)

// Name is the plugin's name in a KubeSchedulerConfiguration.
const Name = "FreeCPU"

type Plugin struct{}

var _ fwk.ScorePlugin = Plugin{}

// New is the plugin factory (frameworkruntime.PluginFactory).
func New(context.Context, runtime.Object, fwk.Handle) (fwk.Plugin, error) { return Plugin{}, nil }

func (Plugin) Name() string { return Name }

// Score is the node's free milli-CPU / 50: the bug is that nothing maps it into [0, 100].
func (Plugin) Score(_ context.Context, _ fwk.CycleState, _ *v1.Pod, node fwk.NodeInfo) (int64, *fwk.Status) {
	free := node.GetAllocatable().GetMilliCPU() - node.GetRequested().GetMilliCPU()
	return free / 50, nil
}

func (Plugin) ScoreExtensions() fwk.ScoreExtensions { return nil }
