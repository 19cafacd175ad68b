// Package preferlevel is the example module's PreferLabeled grown levels, broken only in its own
// world: nodes labelled example.com/preference=<level> score by level, and the "critical" level,
// added later, scores past MaxNodeScore with no NormalizeScore to map it back. Nodes without the
// label, or with a value the suite draws for labels it knows, score in range; only a node carrying
// this plugin's own label value shows the bug. The suite finds that value in this source (no
// domain table), and reports it as score-normalized-range (check-plugin) and observed-score-range
// (run), naming PreferLevel.
package preferlevel

import (
	"context"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	fwk "k8s.io/kube-scheduler/framework"
)

// Name is the plugin's name in a KubeSchedulerConfiguration.
const Name = "PreferLevel"

// Label holds a node's preference level.
const Label = "example.com/preference"

type Plugin struct{}

var _ fwk.ScorePlugin = Plugin{}

// New is the plugin factory (frameworkruntime.PluginFactory).
func New(context.Context, runtime.Object, fwk.Handle) (fwk.Plugin, error) { return Plugin{}, nil }

func (Plugin) Name() string { return Name }

// Score is the node's level: the bug is that "critical" was given more than MaxNodeScore.
func (Plugin) Score(_ context.Context, _ fwk.CycleState, _ *v1.Pod, node fwk.NodeInfo) (int64, *fwk.Status) {
	switch node.Node().Labels[Label] {
	case "low":
		return 25, nil
	case "medium":
		return 50, nil
	case "high":
		return fwk.MaxNodeScore, nil
	case "critical":
		return 2 * fwk.MaxNodeScore, nil
	}
	return fwk.MinNodeScore, nil
}

func (Plugin) ScoreExtensions() fwk.ScoreExtensions { return nil }
