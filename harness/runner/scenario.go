// Package runner runs one Scenario (docs/scenario.md) on the upstream
// scheduler, in-process against a fake clientset, and returns its Outcome.
package runner

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"time"

	v1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes/scheme"
	corev1defaults "k8s.io/kubernetes/pkg/apis/core/v1"
	storagev1defaults "k8s.io/kubernetes/pkg/apis/storage/v1"
)

// defaultDeadline applies when a scenario has no deadline (docs/scenario.md).
const defaultDeadline = 30 * time.Second

// Scenario is the wire form; manifests stay raw until decoded.
type Scenario struct {
	Version  int               `json:"version"`
	Config   json.RawMessage   `json:"config"`
	Nodes    []json.RawMessage `json:"nodes"`
	Pods     []json.RawMessage `json:"pods"`
	Objects  []json.RawMessage `json:"objects"`
	Workload []json.RawMessage `json:"workload"`
	Deadline *float64          `json:"deadline"`
	// Observe names the plugins whose every call is recorded (observe.go); "*" for all but the probes.
	Observe []string `json:"observe"`
	// Timeline is applied while the scheduler works (timeline.go).
	Timeline []TimelineEvent `json:"timeline,omitempty"`
}

// objects are a scenario's manifests decoded and defaulted as the API server
// would store them.
type objects struct {
	existing []runtime.Object // nodes, bound pods, other objects: present before the scheduler starts
	workload []*v1.Pod        // created in order once the scheduler watches
	timeline []timelineEvent  // applied in order while the scheduler works
	deadline time.Duration
}

func (s *Scenario) decode() (*objects, error) {
	if s.Version != 0 && s.Version != 1 {
		return nil, fmt.Errorf("scenario.version: %d is not supported; use 1", s.Version)
	}
	out := &objects{deadline: defaultDeadline}
	if s.Deadline != nil {
		if *s.Deadline <= 0 {
			return nil, fmt.Errorf("scenario.deadline: %v is not a positive number of seconds", *s.Deadline)
		}
		out.deadline = time.Duration(*s.Deadline * float64(time.Second))
	}
	for _, section := range []struct {
		name      string
		manifests []json.RawMessage
	}{{"nodes", s.Nodes}, {"pods", s.Pods}, {"objects", s.Objects}, {"workload", s.Workload}} {
		for i, raw := range section.manifests {
			obj, err := decodeManifest(raw)
			if err != nil {
				return nil, fmt.Errorf("scenario.%s[%d]: %v", section.name, i, err)
			}
			if pod, ok := obj.(*v1.Pod); ok && section.name == "workload" {
				out.workload = append(out.workload, pod)
			} else {
				out.existing = append(out.existing, obj)
			}
		}
	}
	timeline, err := decodeTimeline(s.Timeline, out.deadline)
	if err != nil {
		return nil, err
	}
	out.timeline = timeline
	return out, nil
}

// decodeManifest decodes with client-go's scheme and applies what the API
// server adds on create: defaults (schedulerName, requests from limits,
// allocatable from capacity, ...), the default namespace and a UID.
func decodeManifest(raw json.RawMessage) (runtime.Object, error) {
	obj, _, err := scheme.Codecs.UniversalDeserializer().Decode(raw, nil, nil)
	if err != nil {
		return nil, err
	}
	acc, err := meta.Accessor(obj)
	if err != nil {
		return nil, err
	}
	setDefaults(obj)
	if !clusterScoped[kindOf(obj)] && acc.GetNamespace() == "" {
		acc.SetNamespace("default")
	}
	if acc.GetUID() == "" {
		kind := strings.ToLower(kindOf(obj))
		acc.SetUID(types.UID(fmt.Sprintf("uid-%s-%s-%s", kind, acc.GetNamespace(), acc.GetName())))
	}
	return obj, nil
}

// setDefaults applies the defaults the API server applies on create and update.
func setDefaults(obj runtime.Object) {
	switch o := obj.(type) {
	case *v1.Pod:
		corev1defaults.SetObjectDefaults_Pod(o)
	case *v1.Node:
		corev1defaults.SetObjectDefaults_Node(o)
	case *v1.PersistentVolume:
		corev1defaults.SetObjectDefaults_PersistentVolume(o)
	case *v1.PersistentVolumeClaim:
		corev1defaults.SetObjectDefaults_PersistentVolumeClaim(o)
	case *storagev1.StorageClass:
		storagev1defaults.SetObjectDefaults_StorageClass(o)
	case *storagev1.CSIDriver:
		storagev1defaults.SetObjectDefaults_CSIDriver(o)
	case *storagev1.VolumeAttachment:
		storagev1defaults.SetObjectDefaults_VolumeAttachment(o)
	}
}

// clusterScoped are the cluster-scoped kinds a scenario carries. The classes
// must be among them: stored under "default", a timeline naming one without
// a namespace would not find it.
var clusterScoped = map[string]bool{
	"Node": true, "Namespace": true, "PriorityClass": true, "RuntimeClass": true,
	"PersistentVolume": true, "StorageClass": true, "CSINode": true, "CSIDriver": true, "VolumeAttachment": true,
}

// kindOf is a typed object's kind: its Go type's name.
func kindOf(obj runtime.Object) string { return reflect.TypeOf(obj).Elem().Name() }

func podKey(p *v1.Pod) string { return p.Namespace + "/" + p.Name }
