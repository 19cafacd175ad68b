package runner

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// TimelineEvent is one entry of a scenario's timeline (docs/scenario.md), in
// its wire form. The suite validates timelines before anything starts; the
// runner still names timeline[i] for what it cannot apply.
type TimelineEvent struct {
	When      json.RawMessage `json:"when"` // "idle" or virtual seconds since the workload was created
	Op        string          `json:"op"`   // create, update, delete
	Object    json.RawMessage `json:"object,omitempty"`
	Kind      string          `json:"kind,omitempty"`
	Namespace string          `json:"namespace,omitempty"`
	Name      string          `json:"name,omitempty"`
	Patch     json.RawMessage `json:"patch,omitempty"` // RFC 7386 JSON merge patch
	// Fault entries (faults.go); a vanish's `object` is a word, not a manifest.
	Call       string `json:"call,omitempty"`
	Error      string `json:"error,omitempty"`
	Pod        string `json:"pod,omitempty"`
	Occurrence *int   `json:"occurrence,omitempty"`
	Times      *int   `json:"times,omitempty"`
	Point      string `json:"point,omitempty"`
}

// TimelineEntry is one applied event in the outcome: its index and its virtual time.
type TimelineEntry struct {
	Index int     `json:"index"`
	At    float64 `json:"at"`
}

// timelineEvent is a decoded TimelineEvent.
type timelineEvent struct {
	index int
	idle  bool          // apply when the scheduler is next idle
	at    time.Duration // else at this virtual time (or right after the previous event)
	op    string
	obj   runtime.Object // create
	kind  string
	gvr   schema.GroupVersionResource
	ns    string // "" for cluster-scoped kinds
	name  string
	patch []byte // update
	fault *fault // a fault entry: armed, not applied
}

func (e *timelineEvent) key() string {
	if e.fault != nil {
		return e.fault.pod
	}
	if e.ns == "" {
		return e.name
	}
	return e.ns + "/" + e.name
}

// timelineKinds are the kinds a timeline creates, updates and deletes.
var timelineKinds = map[string]schema.GroupVersionKind{
	"Node":                  {Version: "v1", Kind: "Node"},
	"Pod":                   {Version: "v1", Kind: "Pod"},
	"Namespace":             {Version: "v1", Kind: "Namespace"},
	"Service":               {Version: "v1", Kind: "Service"},
	"ReplicationController": {Version: "v1", Kind: "ReplicationController"},
	"PodDisruptionBudget":   {Group: "policy", Version: "v1", Kind: "PodDisruptionBudget"},
	"ReplicaSet":            {Group: "apps", Version: "v1", Kind: "ReplicaSet"},
	"StatefulSet":           {Group: "apps", Version: "v1", Kind: "StatefulSet"},
	"PriorityClass":         {Group: "scheduling.k8s.io", Version: "v1", Kind: "PriorityClass"},
	"RuntimeClass":          {Group: "node.k8s.io", Version: "v1", Kind: "RuntimeClass"},
	"PersistentVolume":      {Version: "v1", Kind: "PersistentVolume"},
	"PersistentVolumeClaim": {Version: "v1", Kind: "PersistentVolumeClaim"},
	"StorageClass":          {Group: "storage.k8s.io", Version: "v1", Kind: "StorageClass"},
	"CSINode":               {Group: "storage.k8s.io", Version: "v1", Kind: "CSINode"},
	"CSIDriver":             {Group: "storage.k8s.io", Version: "v1", Kind: "CSIDriver"},
	"CSIStorageCapacity":    {Group: "storage.k8s.io", Version: "v1", Kind: "CSIStorageCapacity"},
	"VolumeAttachment":      {Group: "storage.k8s.io", Version: "v1", Kind: "VolumeAttachment"},
}

func kindNames() string {
	names := make([]string, 0, len(timelineKinds))
	for name := range timelineKinds {
		names = append(names, name)
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

// resourceOf is the fake clientset's resource for kind: the tracker files
// objects by resource, as the typed clients name it.
func resourceOf(kind string) (schema.GroupVersionResource, error) {
	gvk, ok := timelineKinds[kind]
	if !ok {
		return schema.GroupVersionResource{}, fmt.Errorf("%q is not a kind a timeline changes; use one of %s",
			kind, kindNames())
	}
	gvr, _ := meta.UnsafeGuessKindToResource(gvk)
	return gvr, nil
}

func decodeTimeline(events []TimelineEvent, deadline time.Duration) ([]timelineEvent, error) {
	out := make([]timelineEvent, 0, len(events))
	for i := range events {
		ev, err := decodeEvent(i, &events[i], deadline)
		if err != nil {
			return nil, fmt.Errorf("scenario.timeline[%d].%v", i, err)
		}
		out = append(out, ev)
	}
	return out, nil
}

// decodeEvent's errors start with the field they are about.
func decodeEvent(i int, in *TimelineEvent, deadline time.Duration) (timelineEvent, error) {
	ev := timelineEvent{index: i, op: in.Op}
	var err error
	_, isFault := faultFields[in.Op]
	if isFault && len(in.When) == 0 {
		ev.fault, err = decodeFault(i, in) // when: optional for a fault, 0 by default
		return ev, err
	}
	if ev.idle, ev.at, err = decodeWhen(in.When, deadline); err != nil {
		return ev, err
	}
	if isFault {
		ev.fault, err = decodeFault(i, in)
		return ev, err
	}
	switch in.Op {
	case "create":
		if ev.obj, err = decodeManifest(in.Object); err != nil {
			return ev, fmt.Errorf("object: %v", err)
		}
		ev.kind = kindOf(ev.obj)
		acc, _ := meta.Accessor(ev.obj)
		ev.ns, ev.name = acc.GetNamespace(), acc.GetName()
		if ev.gvr, err = resourceOf(ev.kind); err != nil {
			return ev, fmt.Errorf("object.kind: %v", err)
		}
		return ev, nil
	case "update", "delete":
		return ev, decodeTarget(&ev, in)
	}
	return ev, fmt.Errorf("op: %q is not an operation; use create, update, delete, fail, vanish or restart", in.Op)
}

// decodeWhen reads "idle" or a number of seconds in [0, deadline).
func decodeWhen(raw json.RawMessage, deadline time.Duration) (idle bool, at time.Duration, err error) {
	var word string
	if json.Unmarshal(raw, &word) == nil && word == "idle" {
		return true, 0, nil
	}
	var seconds float64
	if err := json.Unmarshal(raw, &seconds); err != nil {
		return false, 0, fmt.Errorf("when: %s is neither \"idle\" nor a number of seconds; use one", raw)
	}
	at = time.Duration(seconds * float64(time.Second))
	if seconds < 0 || at >= deadline {
		return false, 0, fmt.Errorf("when: %v is not within the scenario's [0, %v) seconds; "+
			"use a time before the deadline", seconds, deadline.Seconds())
	}
	return false, at, nil
}

// decodeTarget reads kind, namespace, name and (for update) patch.
func decodeTarget(ev *timelineEvent, in *TimelineEvent) error {
	var err error
	if ev.gvr, err = resourceOf(in.Kind); err != nil {
		return fmt.Errorf("kind: %v", err)
	}
	ev.kind, ev.name = in.Kind, in.Name
	if ev.name == "" {
		return fmt.Errorf("name: missing; name the %s to %s", in.Kind, in.Op)
	}
	if !clusterScoped[ev.kind] {
		ev.ns = in.Namespace
		if ev.ns == "" {
			ev.ns = "default"
		}
	}
	if in.Op == "delete" {
		return nil
	}
	var patch map[string]any
	if err := json.Unmarshal(in.Patch, &patch); err != nil || patch == nil {
		return fmt.Errorf("patch: %s is not a JSON merge patch (a mapping); give the fields to change",
			bytes.TrimSpace(in.Patch))
	}
	ev.patch = in.Patch
	return nil
}
