package runner

import (
	"fmt"
	"sync"
	"time"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/events"
	"k8s.io/klog/v2"
	podutil "k8s.io/kubernetes/pkg/api/v1/pod"
	"k8s.io/kubernetes/pkg/features"
)

var podsResource = v1.SchemeGroupVersion.WithResource("pods")

// Binding is one successful pods/binding create.
type Binding struct {
	Pod  string  `json:"pod"`
	Node string  `json:"node"`
	T    float64 `json:"t"`
}

// Event is one event the scheduler recorded.
type Event struct {
	Pod     string `json:"pod"`
	Type    string `json:"type"`
	Reason  string `json:"reason"`
	Message string `json:"message"`
}

// store is the fake API server: a fake clientset whose reactors do what the
// real API server does for pods/binding and pod deletion, and record both.
// Events are recorded synchronously, in the order the scheduler emits them
// (client-go's recorder sends each event from its own goroutine, so the
// order in the API would be arbitrary).
type store struct {
	client *fake.Clientset
	start  time.Time
	poke   func() // after every write and event

	mu       sync.Mutex
	bindings []Binding
	deleted  []*v1.Pod // by the scheduler (preemption)
	events   []Event
	external map[string]bool // pods whose deletion the timeline sends now: not the scheduler's
}

func newStore(start time.Time, objs []runtime.Object, poke func()) *store {
	s := &store{client: fake.NewClientset(objs...), start: start, poke: poke}
	s.client.PrependReactor("*", "*", s.react)
	return s
}

// react runs under the fake clientset's lock, so it must use the tracker,
// never the client.
func (s *store) react(action clienttesting.Action) (bool, runtime.Object, error) {
	switch action.GetVerb() {
	case "create", "update", "patch", "delete":
		s.poke()
	}
	if action.GetResource().Resource != "pods" {
		return false, nil, nil
	}
	switch {
	case action.GetVerb() == "create" && action.GetSubresource() == "binding":
		binding := action.(clienttesting.CreateAction).GetObject().(*v1.Binding)
		if err := s.bind(binding); err != nil {
			return true, nil, err
		}
		return true, binding, nil
	case action.GetVerb() == "delete" && action.GetSubresource() == "":
		del := action.(clienttesting.DeleteAction)
		obj, err := s.client.Tracker().Get(podsResource, del.GetNamespace(), del.GetName())
		if err == nil {
			err = s.client.Tracker().Delete(podsResource, del.GetNamespace(), del.GetName())
		}
		if err != nil {
			return true, nil, err
		}
		s.mu.Lock()
		if !s.external[del.GetNamespace()+"/"+del.GetName()] {
			s.deleted = append(s.deleted, obj.(*v1.Pod))
		}
		s.mu.Unlock()
		return true, nil, nil
	}
	return false, nil, nil
}

// deleteExternally runs del, a deletion of pod namespace/name that is not the
// scheduler's: the reactor does not count it in `deleted`.
func (s *store) deleteExternally(namespace, name string, del func() error) error {
	key := namespace + "/" + name
	s.mu.Lock()
	if s.external == nil {
		s.external = map[string]bool{}
	}
	s.external[key] = true
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.external, key)
		s.mu.Unlock()
	}()
	return del()
}

// deletedByScheduler reports whether the scheduler deleted pod key.
func (s *store) deletedByScheduler(key string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, pod := range s.deleted {
		if podKey(pod) == key {
			return true
		}
	}
	return false
}

// bind does what the binding subresource does (pkg/registry/core/pod/storage:
// BindingREST.setPodNodeAndMetadata and assignPod), errors included.
func (s *store) bind(b *v1.Binding) error {
	obj, err := s.client.Tracker().Get(podsResource, b.Namespace, b.Name)
	if err != nil {
		return err
	}
	pod := obj.(*v1.Pod).DeepCopy()
	conflict := func(format string, args ...any) error {
		return apierrors.NewConflict(schema.GroupResource{Resource: "pods/binding"}, b.Name, fmt.Errorf(format, args...))
	}
	switch {
	case b.UID != "" && b.UID != pod.UID:
		return conflict("Precondition failed: UID in precondition: %v, UID in object meta: %v", b.UID, pod.UID)
	case pod.DeletionTimestamp != nil:
		return conflict("pod %s is being deleted, cannot be assigned to a host", pod.Name)
	case pod.Spec.NodeName != "":
		return conflict("pod %v is already assigned to node %q", pod.Name, pod.Spec.NodeName)
	case len(pod.Spec.SchedulingGates) != 0:
		return conflict("pod %v has non-empty .spec.schedulingGates", pod.Name)
	}
	pod.Spec.NodeName = b.Target.Name
	if utilfeature.DefaultFeatureGate.Enabled(features.ClearingNominatedNodeNameAfterBinding) {
		pod.Status.NominatedNodeName = ""
	}
	for k, v := range b.Annotations {
		if pod.Annotations == nil {
			pod.Annotations = map[string]string{}
		}
		pod.Annotations[k] = v
	}
	podutil.UpdatePodCondition(&pod.Status, &v1.PodCondition{Type: v1.PodScheduled, Status: v1.ConditionTrue})
	if err := s.client.Tracker().Update(podsResource, pod, pod.Namespace); err != nil {
		return err
	}
	s.mu.Lock()
	s.bindings = append(s.bindings, Binding{Pod: b.Namespace + "/" + b.Name, Node: b.Target.Name, T: s.since()})
	s.mu.Unlock()
	return nil
}

func (s *store) since() float64 {
	return float64(time.Since(s.start).Round(time.Microsecond)) / 1e9
}

// recorderFactory gives every profile the synchronous event recorder.
func (s *store) recorderFactory(string) profileRecorder { return eventRecorder{s} }

type eventRecorder struct{ s *store }

// Eventf formats like client-go's recorder (fmt.Sprintf(note, args...)).
func (r eventRecorder) Eventf(regarding, _ runtime.Object, eventtype, reason, _, note string, args ...any) {
	acc, err := meta.Accessor(regarding)
	if err != nil {
		return
	}
	r.s.mu.Lock()
	r.s.events = append(r.s.events, Event{Pod: acc.GetNamespace() + "/" + acc.GetName(), Type: eventtype,
		Reason: reason, Message: fmt.Sprintf(note, args...)})
	r.s.mu.Unlock()
	r.s.poke()
}

// WithLogger is the recorder itself: it logs nothing.
func (r eventRecorder) WithLogger(klog.Logger) events.EventRecorderLogger { return r }
