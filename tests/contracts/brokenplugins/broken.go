// Package broken holds one deliberately broken scheduler plugin per contract
// property of conformance/contracts: the project's tests build them through
// the user-plugin path (--go-module/--go-plugin) and assert that each is
// caught by its property. Each type's comment names the property and the bug.
package broken

import (
	"context"
	"sync"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
)

const zoneLabel = "topology.kubernetes.io/zone"

// Sort (queuesort-strict-weak-order): Less uses >=, so a pod is "less" than
// itself (sort.go: Less's signature changed in v1.37).
type Sort struct{}

func NewSort(context.Context, runtime.Object, fwk.Handle) (fwk.Plugin, error) { return Sort{}, nil }
func (Sort) Name() string                                                     { return "BrokenSort" }

// OnePerNode (prefilter-extensions-consistent): rejects nodes that already run a
// pod; PreFilter counts them, but AddPod/RemovePod forget to update the count.
type OnePerNode struct{}

type counts map[string]int

func (c counts) Clone() fwk.StateData { return c }

const countsKey fwk.StateKey = "BrokenOnePerNode"

func NewOnePerNode(context.Context, runtime.Object, fwk.Handle) (fwk.Plugin, error) {
	return OnePerNode{}, nil
}
func (OnePerNode) Name() string { return "BrokenOnePerNode" }
func (OnePerNode) PreFilter(_ context.Context, state fwk.CycleState, _ *v1.Pod, nodes []fwk.NodeInfo) (*fwk.PreFilterResult, *fwk.Status) {
	c := counts{}
	for _, n := range nodes {
		c[n.Node().Name] = len(n.GetPods())
	}
	state.Write(countsKey, c)
	return nil, nil
}
func (OnePerNode) PreFilterExtensions() fwk.PreFilterExtensions { return OnePerNode{} }
func (OnePerNode) AddPod(context.Context, fwk.CycleState, *v1.Pod, fwk.PodInfo, fwk.NodeInfo) *fwk.Status {
	return nil
}
func (OnePerNode) RemovePod(context.Context, fwk.CycleState, *v1.Pod, fwk.PodInfo, fwk.NodeInfo) *fwk.Status {
	return nil
}
func (OnePerNode) Filter(_ context.Context, state fwk.CycleState, _ *v1.Pod, n fwk.NodeInfo) *fwk.Status {
	data, err := state.Read(countsKey)
	if err != nil {
		return fwk.AsStatus(err)
	}
	if data.(counts)[n.Node().Name] > 0 {
		return fwk.NewStatus(fwk.Unschedulable, "node already runs a pod")
	}
	return nil
}

// Flaky (plugin-deterministic): Score counts its calls.
type Flaky struct {
	mu    sync.Mutex
	calls int64
}

func NewFlaky(context.Context, runtime.Object, fwk.Handle) (fwk.Plugin, error) { return &Flaky{}, nil }
func (*Flaky) Name() string                                                    { return "BrokenFlaky" }
func (p *Flaky) Score(context.Context, fwk.CycleState, *v1.Pod, fwk.NodeInfo) (int64, *fwk.Status) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.calls++
	return p.calls % 100, nil
}
func (*Flaky) ScoreExtensions() fwk.ScoreExtensions { return nil }

// Toucher (plugin-no-input-mutation): Filter labels the pod it was given.
type Toucher struct{}

func NewToucher(context.Context, runtime.Object, fwk.Handle) (fwk.Plugin, error) {
	return Toucher{}, nil
}
func (Toucher) Name() string { return "BrokenToucher" }
func (Toucher) Filter(_ context.Context, _ fwk.CycleState, pod *v1.Pod, _ fwk.NodeInfo) *fwk.Status {
	if pod.Labels == nil {
		pod.Labels = map[string]string{}
	}
	pod.Labels["example.com/filtered"] = "true"
	return nil
}

// Overscore (score-normalized-range): scores free CPU in milli-CPU / 10, with no NormalizeScore.
type Overscore struct{}

func NewOverscore(context.Context, runtime.Object, fwk.Handle) (fwk.Plugin, error) {
	return Overscore{}, nil
}
func (Overscore) Name() string { return "BrokenOverscore" }
func (Overscore) Score(_ context.Context, _ fwk.CycleState, _ *v1.Pod, n fwk.NodeInfo) (int64, *fwk.Status) {
	return (n.GetAllocatable().GetMilliCPU() - n.GetRequested().GetMilliCPU()) / 10, nil
}
func (Overscore) ScoreExtensions() fwk.ScoreExtensions { return nil }

// reservations is what the two Reserve plugins keep: pods reserved per node.
type reservations struct {
	mu     sync.Mutex
	byNode map[string]int
}

func (r *reservations) filter(n fwk.NodeInfo) *fwk.Status {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.byNode[n.Node().Name] != 0 {
		return fwk.NewStatus(fwk.Unschedulable, "node has a reservation")
	}
	return nil
}

func (r *reservations) add(node string, d int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.byNode[node] += d
}

// Leaky (reserve-unreserve-restores): Unreserve does not release what Reserve took.
type Leaky struct{ r reservations }

func NewLeaky(context.Context, runtime.Object, fwk.Handle) (fwk.Plugin, error) {
	return &Leaky{r: reservations{byNode: map[string]int{}}}, nil
}
func (*Leaky) Name() string { return "BrokenLeaky" }
func (p *Leaky) Filter(_ context.Context, _ fwk.CycleState, _ *v1.Pod, n fwk.NodeInfo) *fwk.Status {
	return p.r.filter(n)
}
func (p *Leaky) Reserve(_ context.Context, _ fwk.CycleState, _ *v1.Pod, node string) *fwk.Status {
	p.r.add(node, 1)
	return nil
}
func (*Leaky) Unreserve(context.Context, fwk.CycleState, *v1.Pod, string) {}

// DoubleRelease (unreserve-idempotent): Unreserve releases whether or not Reserve took anything.
type DoubleRelease struct{ r reservations }

func NewDoubleRelease(context.Context, runtime.Object, fwk.Handle) (fwk.Plugin, error) {
	return &DoubleRelease{r: reservations{byNode: map[string]int{}}}, nil
}
func (*DoubleRelease) Name() string { return "BrokenDoubleRelease" }
func (p *DoubleRelease) Filter(_ context.Context, _ fwk.CycleState, _ *v1.Pod, n fwk.NodeInfo) *fwk.Status {
	return p.r.filter(n)
}
func (p *DoubleRelease) Reserve(_ context.Context, _ fwk.CycleState, _ *v1.Pod, node string) *fwk.Status {
	p.r.add(node, 1)
	return nil
}
func (p *DoubleRelease) Unreserve(_ context.Context, _ fwk.CycleState, _ *v1.Pod, node string) {
	p.r.add(node, -1)
}

// ZoneOnly (queueing-hint-no-lost-wakeup): Filter needs a zone label, but the
// plugin registers only node additions, and its hint skips every one of them.
type ZoneOnly struct{}

func NewZoneOnly(context.Context, runtime.Object, fwk.Handle) (fwk.Plugin, error) {
	return ZoneOnly{}, nil
}
func (ZoneOnly) Name() string { return "BrokenZoneOnly" }
func (ZoneOnly) Filter(_ context.Context, _ fwk.CycleState, _ *v1.Pod, n fwk.NodeInfo) *fwk.Status {
	if _, ok := n.Node().Labels[zoneLabel]; !ok {
		return fwk.NewStatus(fwk.UnschedulableAndUnresolvable, "node has no zone")
	}
	return nil
}
func (ZoneOnly) EventsToRegister(context.Context) ([]fwk.ClusterEventWithHint, error) {
	return []fwk.ClusterEventWithHint{{
		Event:          fwk.ClusterEvent{Resource: fwk.Node, ActionType: fwk.Add},
		QueueingHintFn: queueSkip,
	}}, nil
}

func queueSkip(klog.Logger, *v1.Pod, any, any) (fwk.QueueingHint, error) { return fwk.QueueSkip, nil }

// Fit (queueing-hint-no-lost-wakeup, by the pod's own update): Filter
// rejects a node where the containers' cpu or memory requests do not fit in
// what its pods left, and every node or assigned-pod event that frees room is
// requeued; but the pod hint counts only pods that ran on a node, so the
// pending pod lowering its own requests (pods/resize) never wakes it.
type Fit struct{}

func NewFit(context.Context, runtime.Object, fwk.Handle) (fwk.Plugin, error) { return Fit{}, nil }
func (Fit) Name() string                                                     { return "BrokenFit" }
func (Fit) Filter(_ context.Context, _ fwk.CycleState, pod *v1.Pod, n fwk.NodeInfo) *fwk.Status {
	var cpu, memory int64
	for _, c := range pod.Spec.Containers {
		cpu += c.Resources.Requests.Cpu().MilliValue()
		memory += c.Resources.Requests.Memory().Value()
	}
	free, used := n.GetAllocatable(), n.GetRequested()
	if cpu > free.GetMilliCPU()-used.GetMilliCPU() || memory > free.GetMemory()-used.GetMemory() {
		return fwk.NewStatus(fwk.Unschedulable, "the pod's requests do not fit")
	}
	return nil
}
func (Fit) EventsToRegister(context.Context) ([]fwk.ClusterEventWithHint, error) {
	return []fwk.ClusterEventWithHint{
		{Event: fwk.ClusterEvent{Resource: fwk.Node, ActionType: fwk.Add | fwk.UpdateNodeAllocatable}},
		{Event: fwk.ClusterEvent{Resource: fwk.Pod, ActionType: fwk.Delete | fwk.UpdatePodScaleDown}, QueueingHintFn: boundPodFreed},
	}, nil
}

// boundPodFreed queues for a deleted or scaled-down pod that ran on a node.
func boundPodFreed(_ klog.Logger, _ *v1.Pod, oldObj, newObj any) (fwk.QueueingHint, error) {
	changed, ok := newObj.(*v1.Pod)
	if !ok {
		changed, _ = oldObj.(*v1.Pod)
	}
	if changed != nil && changed.Spec.NodeName != "" {
		return fwk.Queue, nil
	}
	return fwk.QueueSkip, nil
}

// Racy (plugin-race-free): Filter counts calls per node in a map without a lock.
type Racy struct{ calls map[string]int }

func NewRacy(context.Context, runtime.Object, fwk.Handle) (fwk.Plugin, error) {
	return &Racy{calls: map[string]int{}}, nil
}
func (*Racy) Name() string { return "BrokenRacy" }
func (p *Racy) Filter(_ context.Context, _ fwk.CycleState, _ *v1.Pod, n fwk.NodeInfo) *fwk.Status {
	p.calls[n.Node().Name]++
	return nil
}

// Panicky (plugin-no-panic): Filter reads the pod's node affinity without checking it has one.
type Panicky struct{}

func NewPanicky(context.Context, runtime.Object, fwk.Handle) (fwk.Plugin, error) {
	return Panicky{}, nil
}
func (Panicky) Name() string { return "BrokenPanicky" }
func (Panicky) Filter(_ context.Context, _ fwk.CycleState, pod *v1.Pod, _ fwk.NodeInfo) *fwk.Status {
	if pod.Spec.Affinity.NodeAffinity != nil {
		return nil
	}
	return nil
}

// Gate (plugin-no-input-mutation at PreEnqueue): stamps the pod it decides on.
type Gate struct{}

func NewGate(context.Context, runtime.Object, fwk.Handle) (fwk.Plugin, error) { return Gate{}, nil }
func (Gate) Name() string                                                     { return "BrokenGate" }
func (Gate) PreEnqueue(_ context.Context, pod *v1.Pod) *fwk.Status {
	if pod.Annotations == nil {
		pod.Annotations = map[string]string{}
	}
	pod.Annotations["example.com/seen"] = "true"
	return nil
}

// Preempt (plugin-no-panic at PostFilter): reads the first node's status
// from the map without asking whether the map has any node.
type Preempt struct{}

func NewPreempt(context.Context, runtime.Object, fwk.Handle) (fwk.Plugin, error) {
	return Preempt{}, nil
}
func (Preempt) Name() string { return "BrokenPreempt" }
func (Preempt) PostFilter(_ context.Context, _ fwk.CycleState, pod *v1.Pod, _ fwk.NodeToStatusReader) (*fwk.PostFilterResult, *fwk.Status) {
	if len(pod.Spec.Containers[0].Ports) == 0 && pod.Spec.Containers[0].Resources.Requests.Cpu().IsZero() {
		var victims []string
		return nil, fwk.NewStatus(fwk.Unschedulable, victims[0])
	}
	return nil, fwk.NewStatus(fwk.Unschedulable, "no victims")
}

// Permit (permit-result-legal): asks to wait, with no timeout: the
// framework's timer rejects the pod at once.
type Permit struct{}

func NewPermit(context.Context, runtime.Object, fwk.Handle) (fwk.Plugin, error) { return Permit{}, nil }
func (Permit) Name() string                                                     { return "BrokenPermit" }
func (Permit) Permit(context.Context, fwk.CycleState, *v1.Pod, string) (*fwk.Status, time.Duration) {
	return fwk.NewStatus(fwk.Wait, "waiting for the gang"), 0
}

// PreBind (plugin-deterministic at PreBind): fails every other call.
type PreBind struct {
	mu    sync.Mutex
	calls int
}

func NewPreBind(context.Context, runtime.Object, fwk.Handle) (fwk.Plugin, error) {
	return &PreBind{}, nil
}
func (*PreBind) Name() string { return "BrokenPreBind" }
func (p *PreBind) PreBind(context.Context, fwk.CycleState, *v1.Pod, string) *fwk.Status {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.calls++
	if p.calls%2 == 0 {
		return fwk.NewStatus(fwk.Error, "volume not ready")
	}
	return nil
}

// Binder (bind-success-binds): says Success without binding anything.
type Binder struct{}

func NewBinder(context.Context, runtime.Object, fwk.Handle) (fwk.Plugin, error)  { return Binder{}, nil }
func (Binder) Name() string                                                      { return "BrokenBinder" }
func (Binder) Bind(context.Context, fwk.CycleState, *v1.Pod, string) *fwk.Status { return nil }

// PostBind (plugin-no-input-mutation at PostBind): records the node in the pod it was given.
type PostBind struct{}

func NewPostBind(context.Context, runtime.Object, fwk.Handle) (fwk.Plugin, error) {
	return PostBind{}, nil
}
func (PostBind) Name() string { return "BrokenPostBind" }
func (PostBind) PostBind(_ context.Context, _ fwk.CycleState, pod *v1.Pod, node string) {
	pod.Spec.NodeName = node
}

// Unresolvable (prefilter-extensions-consistent, by its code): like
// OnePerNode, but AddPod/RemovePod keep the count right; a node they changed
// is rejected UnschedulableAndUnresolvable instead of Unschedulable, so
// preemption, which skips such nodes, never tries it.
type Unresolvable struct{}

type tally struct {
	counts  map[string]int
	touched map[string]bool
}

func (t *tally) Clone() fwk.StateData {
	c := &tally{counts: map[string]int{}, touched: map[string]bool{}}
	for k, v := range t.counts {
		c.counts[k] = v
	}
	for k, v := range t.touched {
		c.touched[k] = v
	}
	return c
}

const tallyKey fwk.StateKey = "BrokenUnresolvable"

func NewUnresolvable(context.Context, runtime.Object, fwk.Handle) (fwk.Plugin, error) {
	return Unresolvable{}, nil
}
func (Unresolvable) Name() string { return "BrokenUnresolvable" }
func (Unresolvable) PreFilter(_ context.Context, state fwk.CycleState, _ *v1.Pod, nodes []fwk.NodeInfo) (*fwk.PreFilterResult, *fwk.Status) {
	t := &tally{counts: map[string]int{}, touched: map[string]bool{}}
	for _, n := range nodes {
		t.counts[n.Node().Name] = len(n.GetPods())
	}
	state.Write(tallyKey, t)
	return nil, nil
}
func (Unresolvable) PreFilterExtensions() fwk.PreFilterExtensions { return Unresolvable{} }
func (Unresolvable) change(state fwk.CycleState, n fwk.NodeInfo, d int) *fwk.Status {
	data, err := state.Read(tallyKey)
	if err != nil {
		return fwk.AsStatus(err)
	}
	t := data.(*tally)
	t.counts[n.Node().Name] += d
	t.touched[n.Node().Name] = true
	return nil
}
func (u Unresolvable) AddPod(_ context.Context, state fwk.CycleState, _ *v1.Pod, _ fwk.PodInfo, n fwk.NodeInfo) *fwk.Status {
	return u.change(state, n, 1)
}
func (u Unresolvable) RemovePod(_ context.Context, state fwk.CycleState, _ *v1.Pod, _ fwk.PodInfo, n fwk.NodeInfo) *fwk.Status {
	return u.change(state, n, -1)
}
func (Unresolvable) Filter(_ context.Context, state fwk.CycleState, _ *v1.Pod, n fwk.NodeInfo) *fwk.Status {
	data, err := state.Read(tallyKey)
	if err != nil {
		return fwk.AsStatus(err)
	}
	t := data.(*tally)
	if t.counts[n.Node().Name] > 0 {
		if t.touched[n.Node().Name] {
			return fwk.NewStatus(fwk.UnschedulableAndUnresolvable, "node already runs a pod")
		}
		return fwk.NewStatus(fwk.Unschedulable, "node already runs a pod")
	}
	return nil
}
