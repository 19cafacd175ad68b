//go:build k8s134

package fwk

import upstream "k8s.io/kubernetes/pkg/scheduler/framework"

// The plugin API, in k8s.io/kubernetes/pkg/scheduler/framework up to v1.34.
type (
	Plugin              = upstream.Plugin
	QueueSortPlugin     = upstream.QueueSortPlugin
	EnqueueExtensions   = upstream.EnqueueExtensions
	PreEnqueuePlugin    = upstream.PreEnqueuePlugin
	PreFilterPlugin     = upstream.PreFilterPlugin
	PreFilterExtensions = upstream.PreFilterExtensions
	PreFilterResult     = upstream.PreFilterResult
	FilterPlugin        = upstream.FilterPlugin
	PostFilterPlugin    = upstream.PostFilterPlugin
	PostFilterResult    = upstream.PostFilterResult
	NodeToStatusReader  = upstream.NodeToStatusReader
	NominatingInfo      = upstream.NominatingInfo
	PreScorePlugin      = upstream.PreScorePlugin
	ScorePlugin         = upstream.ScorePlugin
	ScoreExtensions     = upstream.ScoreExtensions
	NodeScoreList       = upstream.NodeScoreList
	NodeScore           = upstream.NodeScore
	ReservePlugin       = upstream.ReservePlugin
	PermitPlugin        = upstream.PermitPlugin
	WaitingPod          = upstream.WaitingPod
	PreBindPlugin       = upstream.PreBindPlugin
	BindPlugin          = upstream.BindPlugin
	PostBindPlugin      = upstream.PostBindPlugin
	Handle              = upstream.Handle
	Extender            = upstream.Extender
	NodeInfoLister      = upstream.NodeInfoLister
)

// ModeOverride is the NominatingMode that sets the pod's nominated node.
const ModeOverride = upstream.ModeOverride
