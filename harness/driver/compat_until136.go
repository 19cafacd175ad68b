//go:build k8s134 || k8s135 || k8s136

package driver

import (
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	upstream "k8s.io/kube-scheduler/framework"
	internalqueue "k8s.io/kubernetes/pkg/scheduler/backend/queue"
	"k8s.io/kubernetes/pkg/scheduler/framework"

	"github.com/kube-scheduler-conformance/harness/fwk"
)

// v1.34 to v1.36 spellings of compat.go's.

type queuedInfo = upstream.QueuedPodInfo

// hintMap is scheduler.go buildQueueingHintMap for one plugin: a nil hint
// is Queue (SchedulerQueueingHints is locked on since v1.34), a Pod event
// stays one registration (MatchClusterEvents matches it to assigned and
// unscheduled pods), and a plugin that registers Node/Add without
// Node/UpdateNodeTaint gets the latter too, hinted Queue (kubernetes#109437).
func hintMap(plugin string, events []fwk.ClusterEventWithHint) internalqueue.QueueingHintMap {
	out := internalqueue.QueueingHintMap{}
	nodeAdded, taintUpdated := false, false
	for _, e := range events {
		fn := e.QueueingHintFn
		if fn == nil {
			fn = queueAlways
		}
		if e.Event.Resource == fwk.Node {
			nodeAdded = nodeAdded || e.Event.ActionType&fwk.Add != 0
			taintUpdated = taintUpdated || e.Event.ActionType&fwk.UpdateNodeTaint != 0
		}
		out[e.Event] = append(out[e.Event], &internalqueue.QueueingHintFunction{PluginName: plugin, QueueingHintFn: fn})
	}
	if nodeAdded && !taintUpdated {
		taint := fwk.ClusterEvent{Resource: fwk.Node, ActionType: fwk.UpdateNodeTaint}
		out[taint] = append(out[taint], &internalqueue.QueueingHintFunction{PluginName: plugin, QueueingHintFn: queueAlways})
	}
	return out
}

// preHintSkips: PreQueueingHintFn arrived in v1.37.
func preHintSkips(*internalqueue.QueueingHintFunction, types.NamespacedName, any, any) bool {
	return false
}

func podUpdateEvents(newPod, oldPod *v1.Pod) []fwk.ClusterEvent {
	return framework.PodSchedulingPropertiesChange(newPod, oldPod)
}

// targetPodUpdateEvents: before v1.37 PriorityQueue.Update derived the pod's
// own update like any pod's, and an unscheduled pod's events have the
// resource UnschedulablePod (there was no TargetPod; a registration of Pod
// matches it); the scale-up event did not exist yet.
func targetPodUpdateEvents(newPod, oldPod *v1.Pod) []fwk.ClusterEvent {
	return framework.PodSchedulingPropertiesChange(newPod, oldPod)
}

func queued(pod *v1.Pod, q QueuedPod) (*framework.QueuedPodInfo, error) {
	info, err := framework.NewPodInfo(pod)
	if err != nil {
		return nil, err
	}
	out := &framework.QueuedPodInfo{
		PodInfo:            info,
		Timestamp:          queueEpoch.Add(time.Duration(q.Timestamp)),
		Attempts:           q.Attempts,
		UnschedulableCount: q.UnschedulableCount,
		BackoffExpiration:  queueEpoch.Add(time.Duration(q.BackoffExpiration)),
	}
	if q.InitialAttemptDelta != nil {
		t := queueEpoch.Add(time.Duration(*q.InitialAttemptDelta))
		out.InitialAttemptTimestamp = &t
	}
	return out, nil
}
