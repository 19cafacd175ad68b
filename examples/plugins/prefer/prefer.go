// Package prefer is a small out-of-tree Score plugin, the example module of
// docs/own-scheduler.md: nodes with the label example.com/preferred=true score
// 100, the others 0.
package prefer

import (
	"context"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	fwk "k8s.io/kube-scheduler/framework"
)

// Name is the plugin's name in a KubeSchedulerConfiguration.
const Name = "PreferLabeled"

// Label marks the preferred nodes.
const Label = "example.com/preferred"

type Plugin struct{}

var _ fwk.ScorePlugin = Plugin{}

// New is the plugin factory (frameworkruntime.PluginFactory).
func New(context.Context, runtime.Object, fwk.Handle) (fwk.Plugin, error) { return Plugin{}, nil }

func (Plugin) Name() string { return Name }

func (Plugin) Score(_ context.Context, _ fwk.CycleState, _ *v1.Pod, node fwk.NodeInfo) (int64, *fwk.Status) {
	if node.Node().Labels[Label] == "true" {
		return fwk.MaxNodeScore, nil
	}
	return fwk.MinNodeScore, nil
}

func (Plugin) ScoreExtensions() fwk.ScoreExtensions { return nil }
