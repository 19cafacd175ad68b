package runner

import (
	"runtime/debug"

	v1 "k8s.io/api/core/v1"
	"k8s.io/component-base/version"
	configv1 "k8s.io/kube-scheduler/config/v1"
	"k8s.io/kubernetes/pkg/scheduler"

	"github.com/kube-scheduler-conformance/harness/probe"
)

// Outcome is docs/scenario.md's outcome.
type Outcome struct {
	Backend           string                       `json:"backend"`
	KubernetesVersion string                       `json:"kubernetesVersion"`
	Pods              map[string]PodOutcome        `json:"pods"`
	Bindings          []Binding                    `json:"bindings"`
	Deleted           []string                     `json:"deleted"`
	Events            []Event                      `json:"events"`
	Trace             []probe.Record               `json:"trace"`
	Observed          []probe.Record               `json:"observed,omitempty"`
	Plugins           map[string]*configv1.Plugins `json:"plugins"`
	Timeline          []TimelineEntry              `json:"timeline,omitempty"`
	Faults            []FaultFiring                `json:"faults,omitempty"`
}

// PodOutcome is one workload pod's end state.
type PodOutcome struct {
	Phase             string     `json:"phase"`
	Node              string     `json:"node"`
	Attempts          int        `json:"attempts"`
	Condition         *Condition `json:"condition"`
	NominatedNodeName string     `json:"nominatedNodeName"`
}

// Condition is the PodScheduled=False condition the scheduler wrote.
type Condition struct {
	Status  string `json:"status"`
	Reason  string `json:"reason"`
	Message string `json:"message"`
}

// KubernetesVersion is the k8s.io/kubernetes module this binary was built
// from (the -X gitVersion stamp when the build info lacks it).
func KubernetesVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if dep.Path == "k8s.io/kubernetes" {
				return dep.Version
			}
		}
	}
	return version.Get().GitVersion
}

// podOutcome reads a workload pod's phase as docs/scenario.md defines it,
// in the reference's precedence: bound, waiting, gated, unschedulable/error
// (by the PodScheduled reason), pending. A pod no longer in the store (a
// preempted workload pod) is pending, as in the reference.
func (r *run) podOutcome(pod *v1.Pod) PodOutcome {
	obj, err := r.store.client.Tracker().Get(podsResource, pod.Namespace, pod.Name)
	if err != nil {
		return PodOutcome{Phase: "pending"}
	}
	stored := obj.(*v1.Pod)
	out := PodOutcome{Node: stored.Spec.NodeName, Attempts: r.cycles.attemptsOf(stored.UID),
		NominatedNodeName: stored.Status.NominatedNodeName}
	var cond *v1.PodCondition
	for i := range stored.Status.Conditions {
		if c := &stored.Status.Conditions[i]; c.Type == v1.PodScheduled && c.Status == v1.ConditionFalse {
			cond = c
		}
	}
	if stored.Spec.NodeName != "" {
		out.Phase = "bound"
		return out
	}
	if cond != nil {
		out.Condition = &Condition{Status: string(cond.Status), Reason: cond.Reason, Message: cond.Message}
	}
	sched := r.current().sched
	assumed, _ := sched.Cache.IsAssumedPod(stored)
	switch {
	case assumed || waiting(sched, stored):
		out.Phase = "waiting"
	case gated(sched, stored):
		out.Phase = "gated"
	case cond != nil && cond.Reason == v1.PodReasonUnschedulable:
		out.Phase = "unschedulable"
	case cond != nil:
		out.Phase = "error"
	default:
		out.Phase = "pending"
	}
	return out
}

func waiting(sched *scheduler.Scheduler, pod *v1.Pod) bool {
	for _, fw := range sched.Profiles {
		if fw.GetWaitingPod(pod.UID) != nil {
			return true
		}
	}
	return false
}

func gated(sched *scheduler.Scheduler, pod *v1.Pod) bool {
	pInfo, ok := queuedPod(sched, pod)
	return ok && pInfo.GatingPlugin != ""
}

func (r *run) outcome() *Outcome {
	out := &Outcome{Backend: "upstream", KubernetesVersion: KubernetesVersion(), Pods: map[string]PodOutcome{},
		Trace: r.rec.Records(), Observed: r.rec.Observed(), Plugins: r.plugins, Bindings: []Binding{}, Deleted: []string{}, Events: []Event{}}
	out.Timeline = r.applied
	out.Faults = r.store.faults.firings()
	workload := map[string]bool{}
	for _, pod := range r.workloadPods() {
		out.Pods[podKey(pod)] = r.podOutcome(pod)
		workload[podKey(pod)] = true
	}
	r.store.mu.Lock()
	defer r.store.mu.Unlock()
	out.Bindings = append(out.Bindings, r.store.bindings...)
	for _, pod := range r.store.deleted {
		out.Deleted = append(out.Deleted, podKey(pod))
	}
	for _, e := range r.store.events {
		if workload[e.Pod] {
			out.Events = append(out.Events, e)
		}
	}
	if out.Trace == nil {
		out.Trace = []probe.Record{}
	}
	return out
}
