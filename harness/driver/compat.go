//go:build !k8s134 && !k8s135 && !k8s136

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

// The queue's API as of v1.37; compat_until136.go has the v1.34 to v1.36 one
// (harness/build.sh sets the release's build tag).

// queuedInfo is what QueueSort's Less compares.
type queuedInfo = upstream.QueuedEntityInfo

// hintMap is scheduler.go buildQueueingHintMap for one plugin: a nil hint
// is Queue, and a Pod event counts for assigned, unscheduled and target pods.
func hintMap(plugin string, events []fwk.ClusterEventWithHint) internalqueue.QueueingHintMap {
	out := internalqueue.QueueingHintMap{}
	for _, e := range events {
		fn := e.QueueingHintFn
		if fn == nil {
			fn = queueAlways
		}
		hint := &internalqueue.QueueingHintFunction{PluginName: plugin, QueueingHintFn: fn,
			PreQueueingHintFn: e.PreQueueingHintFn}
		if e.Event.Resource == fwk.Pod {
			for _, pe := range framework.UnrollPodEvent(e.Event) {
				out[pe] = append(out[pe], hint)
			}
		} else {
			out[e.Event] = append(out[e.Event], hint)
		}
	}
	return out
}

// preHintSkips says whether the registration's PreQueueingHintFn leaves pod out of the event.
func preHintSkips(fn *internalqueue.QueueingHintFunction, pod types.NamespacedName, oldObj, newObj any) bool {
	if fn.PreQueueingHintFn == nil || (oldObj == nil && newObj == nil) {
		return false
	}
	res, err := fn.PreQueueingHintFn(logger, oldObj, newObj)
	return err == nil && !res.AllPods && !containsName(res.Pods, pod)
}

// podUpdateEvents are the events of an assigned pod's update.
func podUpdateEvents(newPod, oldPod *v1.Pod) []fwk.ClusterEvent {
	return framework.PodSchedulingPropertiesChange(newPod, oldPod, false)
}

// targetPodUpdateEvents are the events of the pending pod's own update:
// scheduling_queue.go PriorityQueue.Update derives them with isTargetPod,
// so their resource is TargetPod (a registration of Pod matches it too).
func targetPodUpdateEvents(newPod, oldPod *v1.Pod) []fwk.ClusterEvent {
	return framework.PodSchedulingPropertiesChange(newPod, oldPod, true)
}

// queued is the QueuedPodInfo the scheduling queue would hold for pod.
func queued(pod *v1.Pod, q QueuedPod) (*framework.QueuedPodInfo, error) {
	info, err := framework.NewPodInfo(pod)
	if err != nil {
		return nil, err
	}
	params := framework.QueueingParams{
		Timestamp:          queueEpoch.Add(time.Duration(q.Timestamp)),
		Attempts:           q.Attempts,
		UnschedulableCount: q.UnschedulableCount,
		BackoffExpiration:  queueEpoch.Add(time.Duration(q.BackoffExpiration)),
	}
	if q.InitialAttemptDelta != nil {
		t := queueEpoch.Add(time.Duration(*q.InitialAttemptDelta))
		params.InitialAttemptTimestamp = &t
	}
	return &framework.QueuedPodInfo{PodInfo: info, QueueingParams: params}, nil
}
