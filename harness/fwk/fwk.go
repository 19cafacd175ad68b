// Package fwk is the scheduler framework API as the harness spells it, on
// every Kubernetes release it builds against. Upstream moved the plugin
// interfaces from k8s.io/kubernetes/pkg/scheduler/framework to
// k8s.io/kube-scheduler/framework in v1.35; these aliases name whichever
// package holds each one, so the probes and the runner import this package as
// `fwk` and read the same on every release. The release family is a build
// tag (k8s134, k8s135, k8s136; none for the pinned v1.37) that harness/build.sh
// sets from the Kubernetes version.
package fwk

import upstream "k8s.io/kube-scheduler/framework"

// In k8s.io/kube-scheduler/framework on every release from v1.34.
type (
	Code       = upstream.Code
	Status     = upstream.Status
	CycleState = upstream.CycleState
	StateKey   = upstream.StateKey
	StateData  = upstream.StateData
	NodeInfo   = upstream.NodeInfo
	PodInfo    = upstream.PodInfo
)

// The status codes, in k8s.io/kube-scheduler/framework on every release from v1.34.
const (
	Success                      = upstream.Success
	Error                        = upstream.Error
	Unschedulable                = upstream.Unschedulable
	UnschedulableAndUnresolvable = upstream.UnschedulableAndUnresolvable
	Wait                         = upstream.Wait
	Skip                         = upstream.Skip
	Pending                      = upstream.Pending
)

// NewStatus is upstream's NewStatus.
func NewStatus(code Code, reasons ...string) *Status { return upstream.NewStatus(code, reasons...) }

// The cluster events and queueing hints, in k8s.io/kube-scheduler/framework on every release from v1.34.
type (
	ActionType           = upstream.ActionType
	ClusterEvent         = upstream.ClusterEvent
	ClusterEventWithHint = upstream.ClusterEventWithHint
	EventResource        = upstream.EventResource
	QueueingHint         = upstream.QueueingHint
	QueueingHintFn       = upstream.QueueingHintFn
)

// The event actions and resources and the hints, in k8s.io/kube-scheduler/framework on
// every release from v1.34.
const (
	Add             = upstream.Add
	Delete          = upstream.Delete
	All             = upstream.All
	Pod             = upstream.Pod
	Node            = upstream.Node
	Queue           = upstream.Queue
	QueueSkip       = upstream.QueueSkip
	UpdateNodeTaint = upstream.UpdateNodeTaint
)
