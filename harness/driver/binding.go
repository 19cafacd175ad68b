package driver

import (
	"fmt"
	"sync"
	"time"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/kubernetes/pkg/scheduler/framework"

	"github.com/kube-scheduler-conformance/harness/fwk"
)

// The points around the scheduling cycle: PreEnqueue before it, PostFilter
// when no node fits, and the binding cycle (Permit, PreBindPreFlight,
// PreBind, Bind, PostBind) on the chosen node.

// bindings is the fake API server's record of pods/binding creates: the
// node each pod was bound to since the last snapshot call. A second binding
// of a pod is a Conflict, as on the API server.
type bindings struct {
	mu    sync.Mutex
	nodes map[string]string // namespace/name -> node
}

func (b *bindings) reset() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.nodes = map[string]string{}
}

func (b *bindings) node(pod *v1.Pod) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.nodes[pod.Namespace+"/"+pod.Name]
}

// react answers pods/binding creates as the API server does for a pending
// pod: the pod is bound (once).
func (b *bindings) react(client *fake.Clientset) {
	client.PrependReactor("create", "pods", func(action clienttesting.Action) (bool, runtime.Object, error) {
		create, ok := action.(clienttesting.CreateAction)
		if !ok || action.GetSubresource() != "binding" {
			return false, nil, nil
		}
		binding, ok := create.GetObject().(*v1.Binding)
		if !ok {
			return false, nil, nil
		}
		key := binding.Namespace + "/" + binding.Name
		b.mu.Lock()
		defer b.mu.Unlock()
		if node, bound := b.nodes[key]; bound {
			return true, nil, apierrors.NewConflict(v1.Resource("pods/binding"), binding.Name,
				fmt.Errorf("pod %s is already assigned to node %q", binding.Name, node))
		}
		b.nodes[key] = binding.Target.Name
		return true, binding, nil
	})
}

func (s *sequence) preEnqueue(c Call) (Result, error) {
	pl, err := pluginAt[fwk.PreEnqueuePlugin](s.d, "PreEnqueue")
	if err != nil {
		return Result{}, err
	}
	pod, err := s.pod(c.Pod)
	if err != nil {
		return Result{}, err
	}
	w := watch("pod", pod)
	out := status(pl.PreEnqueue(s.d.ctx, pod))
	out.Mutated = w.changed()
	return out, nil
}

// postFilter calls PostFilter as schedule_one.go does after a FitError:
// never when the plugin's own Filter (with the call's state) accepted a
// node. The node status map holds PreFilter's rejection for every node when
// it rejected, else per node what Filter answered, and for a node Filter was
// not asked about (a plugin without Filter) Unschedulable by another plugin:
// a node preemption may free.
func (s *sequence) postFilter(c Call) (Result, error) {
	pl, err := pluginAt[fwk.PostFilterPlugin](s.d, "PostFilter")
	if err != nil {
		return Result{}, err
	}
	pod, st, _, err := s.podStateNode(c)
	if err != nil {
		return Result{}, err
	}
	statuses := framework.NewDefaultNodeToStatus()
	if pre := s.preFiltered[c.State]; pre != nil && !pre.IsSuccess() && !pre.IsSkip() {
		statuses.SetAbsentNodesStatus(pre)
	} else {
		for _, ni := range s.nodes() {
			sts, ok := s.filtered[c.State][ni.Node().Name]
			if !ok {
				sts = fwk.NewStatus(fwk.Unschedulable, otherRejection)
			} else if sts.IsSuccess() {
				return Result{Skipped: true}, nil // a feasible node: no FitError, no PostFilter
			}
			statuses.Set(ni.Node().Name, sts)
		}
	}
	nodes := s.nodes()
	w := watch("pod", pod, "nodeInfos", nodes, "otherPluginsState", foreign(st))
	res, sts := pl.PostFilter(s.d.ctx, st, pod, statuses)
	out := status(sts)
	if res != nil && res.NominatingInfo != nil {
		out.Nominated = &Nominated{Node: res.NominatedNodeName, Override: res.NominatingMode == fwk.ModeOverride}
	}
	out.Mutated = w.changed()
	return out, nil
}

// otherRejection is the reason of a node another plugin rejected, in PostFilter's node status map.
const otherRejection = "rejected by another plugin (conformance driver)"

// Nominated is PostFilter's NominatingInfo.
type Nominated struct {
	Node     string `json:"node"`
	Override bool   `json:"override"`
}

func (s *sequence) permit(c Call) (Result, error) {
	return atNode(s, c, "Permit", func(pl fwk.PermitPlugin, st fwk.CycleState, pod *v1.Pod) Result {
		sts, timeout := pl.Permit(s.d.ctx, st, pod, c.Node)
		out := status(sts)
		if sts.IsWait() {
			t := int64(timeout / time.Nanosecond)
			out.Timeout = &t
		}
		return out
	})
}

func (s *sequence) preBindPreFlight(c Call) (Result, error) {
	return atNode(s, c, "PreBind", func(pl fwk.PreBindPlugin, st fwk.CycleState, pod *v1.Pod) Result {
		return status(preFlight(s.d.ctx, pl, st, pod, c.Node))
	})
}

func (s *sequence) preBind(c Call) (Result, error) {
	return atNode(s, c, "PreBind", func(pl fwk.PreBindPlugin, st fwk.CycleState, pod *v1.Pod) Result {
		return status(pl.PreBind(s.d.ctx, st, pod, c.Node))
	})
}

// bind calls Bind; Bound is the node the fake API server saw the pod bound
// to by the end of the call ("" for none).
func (s *sequence) bind(c Call) (Result, error) {
	return atNode(s, c, "Bind", func(pl fwk.BindPlugin, st fwk.CycleState, pod *v1.Pod) Result {
		out := status(pl.Bind(s.d.ctx, st, pod, c.Node))
		bound := s.d.bound.node(pod)
		out.Bound = &bound
		return out
	})
}

func (s *sequence) postBind(c Call) (Result, error) {
	return atNode(s, c, "PostBind", func(pl fwk.PostBindPlugin, st fwk.CycleState, pod *v1.Pod) Result {
		pl.PostBind(s.d.ctx, st, pod, c.Node)
		return Result{Code: fwk.Success.String()}
	})
}
