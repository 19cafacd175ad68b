package runner

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Faults are timeline entries (docs/scenario.md, "Faults"): armed at their
// `when` like events, they fire later, when their trigger happens.
//   - fail: one of the scheduler's own API calls answers an error (store.go);
//   - vanish: an object is deleted when a pod reaches a point (faults_points.go);
//   - restart: the scheduler restarts when a pod reaches a point (restart.go);
//   - lag: a node's watch events reach the scheduler late (faults_lag.go).

// fault is a decoded fault entry.
type fault struct {
	index      int
	op         string // fail, vanish, restart, lag
	call       string // fail: bind, status, evict, event
	err        string // fail: conflict, internal, timeout
	pod        string // "ns/name"; "" (fail only): any pod's call
	occurrence int    // fail: the first failing matching call
	times      int    // fail: consecutive failing calls
	point      string // vanish, restart: reserve, permit, prebind, bind, preempt
	object     string // vanish: pod, node, victim
	node       string // lag: the node whose watch events are late
	delay      time.Duration
}

// FaultFiring is one firing in the outcome's `faults`.
type FaultFiring struct {
	Index  int     `json:"index"`
	At     float64 `json:"at"`
	Pod    string  `json:"pod"`
	Fault  string  `json:"fault"`
	Detail string  `json:"detail"`
	// vanish: what was deleted, "Node/name" or "Pod/ns/name"; lag: the node
	Object string   `json:"object,omitempty"`
	Seen   *float64 `json:"seen,omitempty"` // lag: when the scheduler's watch delivers the event
}

var (
	faultCalls   = []string{"bind", "status", "evict", "event"}
	faultErrors  = []string{"conflict", "internal", "timeout", "timeout-applied"}
	vanishPoints = []string{"reserve", "permit", "prebind", "preempt"}
	vanishObject = []string{"pod", "node", "victim"}
	restartPoint = []string{"reserve", "permit", "prebind", "bind"}
)

// faultFields are the fields each fault op takes besides when and op.
var faultFields = map[string][]string{
	"fail":    {"call", "error", "pod", "occurrence", "times"},
	"vanish":  {"pod", "point", "object"},
	"restart": {"pod", "point"},
	"lag":     {"kind", "name", "delay"},
}

// decodeFault reads a fault entry; its errors start with the field they are about.
func decodeFault(i int, in *TimelineEvent) (*fault, error) {
	if extra := in.extraFields(faultFields[in.Op]); extra != "" {
		return nil, fmt.Errorf("%s: not a field of an op: %s fault; drop it", extra, in.Op)
	}
	f := &fault{index: i, op: in.Op, call: in.Call, err: in.Error, point: in.Point, occurrence: 1, times: 1}
	if in.Op == "lag" {
		return decodeLag(f, in)
	}
	if in.Pod != "" || in.Op != "fail" {
		key, err := faultPod(in.Pod)
		if err != nil {
			return nil, err
		}
		f.pod = key
	}
	oneOf := func(field, value string, allowed []string) error {
		if !slices.Contains(allowed, value) {
			return fmt.Errorf("%s: %q is not one of %s; use one of them", field, value, strings.Join(allowed, ", "))
		}
		return nil
	}
	switch in.Op {
	case "fail":
		for _, n := range []struct {
			field string
			value *int
			into  *int
		}{{"occurrence", in.Occurrence, &f.occurrence}, {"times", in.Times, &f.times}} {
			if n.value == nil {
				continue
			}
			if *n.value < 1 {
				return nil, fmt.Errorf("%s: %d is below 1; count calls from 1", n.field, *n.value)
			}
			*n.into = *n.value
		}
		if err := oneOf("call", f.call, faultCalls); err != nil {
			return nil, err
		}
		if f.err == "timeout-applied" && f.call != "bind" {
			return nil, fmt.Errorf("error: timeout-applied is an error of the binding only; use call: bind, " +
				"or error: timeout")
		}
		return f, oneOf("error", f.err, faultErrors)
	case "vanish":
		if err := json.Unmarshal(in.Object, &f.object); err != nil {
			return nil, fmt.Errorf("object: %s is not pod, node or victim; name what vanishes", in.Object)
		}
		if err := oneOf("object", f.object, vanishObject); err != nil {
			return nil, err
		}
		if err := oneOf("point", f.point, vanishPoints); err != nil {
			return nil, err
		}
		if (f.object == "victim") != (f.point == "preempt") {
			return nil, fmt.Errorf("object: %s at point %s: a victim vanishes at point preempt, and only a "+
				"victim does; pair them", f.object, f.point)
		}
		return f, nil
	default:
		return f, oneOf("point", f.point, restartPoint)
	}
}

// decodeLag reads a lag fault: a node and a delay.
func decodeLag(f *fault, in *TimelineEvent) (*fault, error) {
	if in.Kind != "Node" {
		return nil, fmt.Errorf("kind: %q is not a kind whose watch events can lag; use kind: Node", in.Kind)
	}
	if in.Name == "" {
		return nil, fmt.Errorf("name: missing; name the node whose watch events lag")
	}
	if in.Delay == nil || !(*in.Delay > 0) || math.IsInf(*in.Delay, 0) {
		return nil, fmt.Errorf("delay: not a delay; use virtual seconds > 0")
	}
	f.node, f.delay = in.Name, time.Duration(*in.Delay*float64(time.Second))
	return f, nil
}

// faultPod reads "ns/name" (a bare name is in "default").
func faultPod(pod string) (string, error) {
	if pod == "" {
		return "", fmt.Errorf("pod: missing; name the pod (namespace/name) whose cycle triggers the fault")
	}
	if !strings.Contains(pod, "/") {
		return "default/" + pod, nil
	}
	return pod, nil
}

// extraFields names the first set field of in that a fault does not take.
func (in *TimelineEvent) extraFields(allowed []string) string {
	set := map[string]bool{"kind": in.Kind != "", "namespace": in.Namespace != "", "name": in.Name != "",
		"patch": len(in.Patch) > 0, "call": in.Call != "", "error": in.Error != "", "pod": in.Pod != "",
		"occurrence": in.Occurrence != nil, "times": in.Times != nil, "point": in.Point != "",
		"object": len(in.Object) > 0, "delay": in.Delay != nil}
	for _, field := range []string{"kind", "namespace", "name", "patch", "call", "error", "pod", "occurrence",
		"times", "point", "object", "delay"} {
		if set[field] && !slices.Contains(allowed, field) {
			return field
		}
	}
	return ""
}

// apiError is the error the API server answers for an injected fault, worded
// as the reference words it (reference/scheduler/faults.py, error_text).
func (f *fault) apiError(resource, name string) error {
	switch f.err {
	case "conflict":
		return apierrors.NewConflict(schema.GroupResource{Resource: resource}, name, errors.New("injected conflict"))
	case "internal":
		return apierrors.NewInternalError(errors.New("injected internal error"))
	default:
		// What client-go returns for a 504 with the server's Status body; no
		// Retry-After, so the client does not retry. timeout-applied: the
		// same answer, after the server applied the call (store.go).
		return apierrors.NewTimeoutError("injected timeout", 0)
	}
}

// armedFault is a fault whose entry has applied.
type armedFault struct {
	*fault
	matched int // fail: matching calls since arming
	fired   int
}

// injector holds the armed faults and their firings; the scheduler's
// goroutines ask it, the timeline arms it.
type injector struct {
	mu     sync.Mutex
	since  func() float64
	armed  []*armedFault
	firing []FaultFiring
}

func (j *injector) arm(f *fault) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.armed = append(j.armed, &armedFault{fault: f})
}

// fail counts a scheduler call (call, pod) for every armed fail fault that
// selects it and returns the error of the first that fails it, or nil;
// applied: the server applies the call before it answers the error.
func (j *injector) fail(call, pod, resource, name string) (applied bool, err error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	for _, f := range j.armed {
		if f.op != "fail" || f.call != call || (f.pod != "" && f.pod != pod) {
			continue
		}
		f.matched++
		if err == nil && f.matched >= f.occurrence && f.matched < f.occurrence+f.times {
			err, applied = f.apiError(resource, name), f.err == "timeout-applied"
			f.fired++
			j.record(f.fault, pod, call)
		}
	}
	return applied, err
}

// at returns the armed vanish and restart faults of pod at point that have
// not fired, marking them fired: the caller carries them out.
func (j *injector) at(point, pod string) []*fault {
	j.mu.Lock()
	defer j.mu.Unlock()
	var out []*fault
	for _, f := range j.armed {
		if f.point != "" && f.point == point && f.pod == pod && f.fired == 0 {
			f.fired++
			j.record(f.fault, pod, point)
			out = append(out, f.fault)
		}
	}
	return out
}

// armedAt reports whether a fault of pod at point is armed and has not fired.
func (j *injector) armedAt(point, pod string) bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	for _, f := range j.armed {
		if f.point != "" && f.point == point && f.pod == pod && f.fired == 0 {
			return true
		}
	}
	return false
}

// vanished names what a vanish fault deleted, in its firing.
func (j *injector) vanished(f *fault, object string) {
	j.mu.Lock()
	defer j.mu.Unlock()
	for i := len(j.firing) - 1; i >= 0; i-- {
		if j.firing[i].Index == f.index {
			j.firing[i].Object = object
			return
		}
	}
}

func (j *injector) record(f *fault, pod, detail string) {
	j.firing = append(j.firing, FaultFiring{Index: f.index, At: j.since(), Pod: pod, Fault: f.op,
		Detail: detail})
}

func (j *injector) firings() []FaultFiring {
	j.mu.Lock()
	defer j.mu.Unlock()
	return append([]FaultFiring(nil), j.firing...)
}

// hasPointFaults reports whether the timeline has vanish or restart faults.
func (o *objects) hasPointFaults() bool {
	return slices.ContainsFunc(o.timeline, func(ev timelineEvent) bool {
		return ev.fault != nil && ev.fault.point != ""
	})
}

// hasLagFaults reports whether the timeline has lag faults.
func (o *objects) hasLagFaults() bool {
	return slices.ContainsFunc(o.timeline, func(ev timelineEvent) bool {
		return ev.fault != nil && ev.fault.op == "lag"
	})
}

// hasVictimFaults reports whether the timeline has faults at point preempt.
func (o *objects) hasVictimFaults() bool {
	return slices.ContainsFunc(o.timeline, func(ev timelineEvent) bool {
		return ev.fault != nil && ev.fault.point == "preempt"
	})
}

func splitKey(key string) (namespace, name string) {
	namespace, name, _ = strings.Cut(key, "/")
	return namespace, name
}
