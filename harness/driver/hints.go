package driver

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/kubernetes/pkg/scheduler/framework"

	"github.com/kube-scheduler-conformance/harness/fwk"
	"github.com/kube-scheduler-conformance/harness/runner"
)

// Event is a cluster event: an assigned pod or a node added, updated or
// deleted, or (Target) an update of the hint call's pod itself, the pending
// pod the plugin rejected.
type Event struct {
	Kind   string          `json:"kind"`
	Action string          `json:"action"`
	Target bool            `json:"target,omitempty"`
	Old    json.RawMessage `json:"old,omitempty"`
	New    json.RawMessage `json:"new,omitempty"`
}

// HintResult says what the scheduling queue would do with a pod the plugin
// rejected when Event happens: the cluster events upstream's handlers derive
// from it, the plugin's registrations that match them, and whether one of
// their hints says Queue.
type HintResult struct {
	Events     []string `json:"events"`
	Registered []string `json:"registered"`
	Queue      bool     `json:"queue"`
	Errors     []string `json:"errors,omitempty"`
}

func (s *sequence) hint(c Call) (Result, error) {
	pod, err := s.pod(c.Pod)
	if err != nil {
		return Result{}, err
	}
	if c.Event == nil {
		return Result{}, fmt.Errorf("hint needs an event")
	}
	var events []fwk.ClusterEvent
	var oldObj, newObj any
	if c.Event.Target {
		events, oldObj, newObj, err = s.targetEvents(*c.Event, pod)
		if err == nil {
			// PriorityQueue.Update stores the new pod in the queued entity before it asks the hints.
			pod = newObj.(*v1.Pod)
		}
	} else {
		events, oldObj, newObj, err = s.clusterEvents(*c.Event)
	}
	if err != nil {
		return Result{}, err
	}
	out := &HintResult{Events: []string{}, Registered: []string{}}
	for _, evt := range events {
		out.Events = append(out.Events, evt.Label())
		s.d.requeue(out, pod, evt, oldObj, newObj, !c.Event.Target)
	}
	return Result{Code: fwk.Success.String(), Hint: out}, nil
}

// requeue is PriorityQueue.isPodWorthRequeuing for a pod whose only rejector
// is the plugin. preHints: the queue narrowed the pods by PreQueueingHintFn
// (MoveAllToActiveOrBackoffQueue does; Update, for the pod's own update, asks
// isEntityWorthRequeuing with no hint keys).
func (d *Driver) requeue(out *HintResult, pod *v1.Pod, evt fwk.ClusterEvent, oldObj, newObj any, preHints bool) {
	name := d.plugin.Name()
	podNN := types.NamespacedName{Namespace: pod.Namespace, Name: pod.Name}
	for registered, fns := range d.hints {
		if !framework.MatchClusterEvents(registered, evt) {
			continue
		}
		for _, fn := range fns {
			if fn.PluginName != name {
				continue
			}
			out.Registered = append(out.Registered, registrationText(registered))
			if preHints && preHintSkips(fn, podNN, oldObj, newObj) {
				continue
			}
			hint, err := fn.QueueingHintFn(logger, pod, oldObj, newObj)
			if err != nil {
				out.Errors = append(out.Errors, err.Error())
				hint = fwk.Queue
			}
			if hint == fwk.Queue {
				out.Queue = true
			}
		}
	}
	sort.Strings(out.Registered)
}

// registrationText names a registered event with each of its actions
// (Label() prints nothing for a union such as Add|UpdateNodeLabel).
func registrationText(e fwk.ClusterEvent) string {
	if e.ActionType == fwk.All {
		return string(e.Resource) + "/All"
	}
	var actions []string
	for bit := fwk.ActionType(1); bit != 0 && bit <= e.ActionType; bit <<= 1 {
		if e.ActionType&bit != 0 {
			actions = append(actions, bit.String())
		}
	}
	return string(e.Resource) + "/" + strings.Join(actions, "|")
}

func containsName(names []types.NamespacedName, n types.NamespacedName) bool {
	for _, x := range names {
		if x == n {
			return true
		}
	}
	return false
}

// clusterEvents are the events upstream's event handlers (eventhandlers.go)
// send the queue for a change of a node or an assigned pod.
func (s *sequence) clusterEvents(e Event) ([]fwk.ClusterEvent, any, any, error) {
	decode := func(raw []byte) (any, error) {
		if len(raw) == 0 {
			return nil, nil
		}
		obj, err := runner.DecodeManifest(raw)
		if err != nil {
			return nil, err
		}
		return obj, nil
	}
	oldObj, err := decode(e.Old)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("event.old: %v", err)
	}
	newObj, err := decode(e.New)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("event.new: %v", err)
	}
	switch e.Kind + "/" + e.Action {
	case "node/add":
		return []fwk.ClusterEvent{{Resource: fwk.EventResource("Node"), ActionType: fwk.Add}}, nil, newObj, nil
	case "node/delete":
		return []fwk.ClusterEvent{{Resource: fwk.EventResource("Node"), ActionType: fwk.Delete}}, oldObj, nil, nil
	case "node/update":
		if oldObj == nil || newObj == nil {
			return nil, nil, nil, fmt.Errorf("a node update needs old and new")
		}
		return framework.NodeSchedulingPropertiesChange(newObj.(*v1.Node), oldObj.(*v1.Node)), oldObj, newObj, nil
	case "pod/add":
		return []fwk.ClusterEvent{framework.EventAssignedPodAdd}, nil, newObj, nil
	case "pod/delete":
		return []fwk.ClusterEvent{framework.EventAssignedPodDelete}, oldObj, nil, nil
	case "pod/update":
		if oldObj == nil || newObj == nil {
			return nil, nil, nil, fmt.Errorf("a pod update needs old and new")
		}
		return podUpdateEvents(newObj.(*v1.Pod), oldObj.(*v1.Pod)), oldObj, newObj, nil
	}
	return nil, nil, nil, fmt.Errorf("event %s/%s: use kind node or pod and action add, update or delete", e.Kind, e.Action)
}

// targetEvents are the events PriorityQueue.Update derives from an update of
// the pending pod itself (eventhandlers.go updatePodInSchedulingQueue calls
// it for an unscheduled pod): targetPodUpdateEvents, per release. Old and
// new must be that pod, still unscheduled: an update that binds it is not
// one the queue hints on.
func (s *sequence) targetEvents(e Event, pod *v1.Pod) ([]fwk.ClusterEvent, any, any, error) {
	if e.Kind != "pod" || e.Action != "update" {
		return nil, nil, nil, fmt.Errorf("a target event is a pod update; give kind pod, action update, old and new")
	}
	var pods [2]*v1.Pod
	for i, raw := range []json.RawMessage{e.Old, e.New} {
		side := [2]string{"old", "new"}[i]
		if len(raw) == 0 {
			return nil, nil, nil, fmt.Errorf("a target pod update needs old and new")
		}
		p, err := s.pod(raw)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("event.%s: %v", side, err)
		}
		if p.Namespace != pod.Namespace || p.Name != pod.Name {
			return nil, nil, nil, fmt.Errorf("target event.%s is pod %s/%s, not the call's pod %s/%s; give the call's pod as old and its update as new",
				side, p.Namespace, p.Name, pod.Namespace, pod.Name)
		}
		if p.Spec.NodeName != "" {
			return nil, nil, nil, fmt.Errorf("target event.%s has nodeName %q; the target pod is pending: leave spec.nodeName empty, or send a pod update without target for an assigned pod",
				side, p.Spec.NodeName)
		}
		pods[i] = p
	}
	return targetPodUpdateEvents(pods[1], pods[0]), pods[0], pods[1], nil
}
