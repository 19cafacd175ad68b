package runner

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
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

// store is the fake API server: one object tracker, and reactors that do
// what the real API server does for pods/binding and pod deletion, and
// record both. The runner writes through `client`; each scheduler (one per
// restart) through a client of its own (schedulerClient), whose calls are
// the ones faults fail and the only deletions counted as the scheduler's.
// Every call is served under one lock, as the single clientset did.
// Events are recorded synchronously, in the order the scheduler emits them
// (client-go's recorder sends each event from its own goroutine, so the
// order in the API would be arbitrary).
type store struct {
	client  *fake.Clientset
	tracker clienttesting.ObjectTracker
	objects clienttesting.ReactionFunc
	start   time.Time
	poke    func() // after every write and event
	faults  *injector
	// beforeCall, when set, runs first for every call of a live scheduler
	// (faults_points.go: a victim vanishing); an error answers the call.
	beforeCall func(sess *session, call, pod string) error
	// lagNodes: the timeline has lag faults, so node watches are wrapped
	// (faults_lag.go); lagging counts the events they hold back.
	lagNodesOn bool
	lagging    atomic.Int64

	serving  sync.Mutex
	mu       sync.Mutex
	bindings []Binding
	deleted  []*v1.Pod // by the scheduler (preemption)
	events   []Event
}

// session is one scheduler's connection: once stopped (a restart), every
// call of that scheduler is refused, as a dead process makes none.
type session struct{ stopped atomic.Bool }

var errStopped = errors.New("the scheduler was stopped by a restart (scenario timeline): it makes no more API calls")

func newStore(start time.Time, objs []runtime.Object, poke func()) *store {
	// The simple tracker: NewClientset's field-managed one rebuilds a REST mapper and a field manager on every
	// write (half the runner's CPU, measured), for managed fields kube-scheduler never reads (it applies nothing).
	s := &store{client: fake.NewSimpleClientset(objs...), start: start, poke: poke}
	s.tracker = s.client.Tracker()
	s.objects = clienttesting.ObjectReaction(s.tracker)
	s.faults = &injector{since: s.since}
	s.client.ReactionChain = nil
	s.client.AddReactor("*", "*", func(action clienttesting.Action) (bool, runtime.Object, error) {
		return s.serve(action, false)
	})
	return s
}

// schedulerClient is a new client on the same objects for one scheduler.
func (s *store) schedulerClient(sess *session) *fake.Clientset {
	cs := fake.NewSimpleClientset() // its own tracker is unused: every call goes to s
	cs.ReactionChain, cs.WatchReactionChain = nil, nil
	cs.AddReactor("*", "*", func(action clienttesting.Action) (bool, runtime.Object, error) {
		if sess.stopped.Load() {
			return true, nil, errStopped
		}
		call, pod, resource, name := faultCall(action)
		if call != "" && s.beforeCall != nil {
			if err := s.beforeCall(sess, call, pod); err != nil {
				return true, nil, err
			}
		}
		if call != "" {
			if applied, err := s.faults.fail(call, pod, resource, name); err != nil {
				s.poke()
				if applied { // the server applied it, but the answer is lost (a 504)
					if _, _, serr := s.serve(action, true); serr != nil {
						return true, nil, serr
					}
				}
				return true, nil, err
			}
		}
		return s.serve(action, true)
	})
	cs.AddWatchReactor("*", func(action clienttesting.Action) (bool, watch.Interface, error) {
		if sess.stopped.Load() {
			return true, nil, errStopped
		}
		var opts metav1.ListOptions
		if w, ok := action.(clienttesting.WatchActionImpl); ok {
			opts = w.ListOptions
		}
		w, err := s.tracker.Watch(action.GetResource(), action.GetNamespace(), opts)
		if err == nil && s.lagNodesOn && action.GetResource().Resource == "nodes" {
			w = s.lagNodes(w, sess)
		}
		return err == nil, w, err
	})
	return cs
}

// faultCall names the scheduler call a fail fault selects (faults.go), the
// pod it is about, and the resource and name an error names; "" for others.
func faultCall(action clienttesting.Action) (call, pod, resource, name string) {
	res, sub, verb := action.GetResource().Resource, action.GetSubresource(), action.GetVerb()
	ns := action.GetNamespace()
	switch {
	case res == "pods" && sub == "binding" && verb == "create":
		b, _ := action.(clienttesting.CreateAction).GetObject().(*v1.Binding)
		if b == nil {
			return "", "", "", ""
		}
		return "bind", ns + "/" + b.Name, "pods/binding", b.Name
	case res == "pods" && sub == "status" && (verb == "patch" || verb == "update"):
		name := objectName(action)
		return "status", ns + "/" + name, "pods", name
	case res == "pods" && sub == "" && verb == "delete":
		name := action.(clienttesting.DeleteAction).GetName()
		return "evict", ns + "/" + name, "pods", name
	}
	return "", "", "", ""
}

func objectName(action clienttesting.Action) string {
	switch a := action.(type) {
	case clienttesting.PatchAction:
		return a.GetName()
	case clienttesting.UpdateAction:
		if acc, err := meta.Accessor(a.GetObject()); err == nil {
			return acc.GetName()
		}
	}
	return ""
}

// serve answers a call as the API server would; byScheduler marks the
// scheduler's own calls.
func (s *store) serve(action clienttesting.Action, byScheduler bool) (bool, runtime.Object, error) {
	s.serving.Lock()
	defer s.serving.Unlock()
	switch action.GetVerb() {
	case "create", "update", "patch", "delete":
		s.poke()
	}
	if action.GetResource().Resource != "pods" {
		return s.objects(action)
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
		obj, err := s.tracker.Get(podsResource, del.GetNamespace(), del.GetName())
		if err == nil {
			err = s.tracker.Delete(podsResource, del.GetNamespace(), del.GetName())
		}
		if err != nil {
			return true, nil, err
		}
		if byScheduler {
			s.mu.Lock()
			s.deleted = append(s.deleted, obj.(*v1.Pod))
			s.mu.Unlock()
		}
		return true, nil, nil
	}
	return s.objects(action)
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
	obj, err := s.tracker.Get(podsResource, b.Namespace, b.Name)
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
	if err := s.tracker.Update(podsResource, pod, pod.Namespace); err != nil {
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

// recorderFactory gives every profile of a scheduler the synchronous event recorder.
func (s *store) recorderFactory(sess *session) func(string) profileRecorder {
	return func(string) profileRecorder { return eventRecorder{s, sess} }
}

type eventRecorder struct {
	s    *store
	sess *session
}

// Eventf formats like client-go's recorder (fmt.Sprintf(note, args...)).
// Each call is one event write: a stopped scheduler writes none, and a write
// a fail fault (call: event) fails is lost, as client-go's broadcaster drops
// an event the server rejected with a status error (recordEvent: no retry).
func (r eventRecorder) Eventf(regarding, _ runtime.Object, eventtype, reason, _, note string, args ...any) {
	acc, err := meta.Accessor(regarding)
	if err != nil || r.sess.stopped.Load() {
		return
	}
	pod := acc.GetNamespace() + "/" + acc.GetName()
	if _, err := r.s.faults.fail("event", pod, "pods", acc.GetName()); err != nil {
		r.s.poke()
		return
	}
	r.s.mu.Lock()
	r.s.events = append(r.s.events, Event{Pod: pod, Type: eventtype,
		Reason: reason, Message: fmt.Sprintf(note, args...)})
	r.s.mu.Unlock()
	r.s.poke()
}

// WithLogger is the recorder itself: it logs nothing.
func (r eventRecorder) WithLogger(klog.Logger) events.EventRecorderLogger { return r }
