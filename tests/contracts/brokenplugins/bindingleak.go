package broken

import (
	"context"
	"sync"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	fwk "k8s.io/kube-scheduler/framework"
)

// BindingLeak (failed-binding-restores; in a whole run under failed bindings, observed-reserve-released):
// it lets one binding at a time into a node. Reserve holds the node; PreBind commits the hold, which
// from then on only PostBind frees, and Unreserve frees only holds not yet committed. A binding that
// fails after PreBind (another plugin's PreBind, the Bind API call) leaks the node for good. Reserve
// then Unreserve alone restores everything, so reserve-unreserve-restores lets it through.
type BindingLeak struct {
	mu sync.Mutex
	// node -> pod -> committed
	holds map[string]map[types.UID]bool
}

func NewBindingLeak(context.Context, runtime.Object, fwk.Handle) (fwk.Plugin, error) {
	return &BindingLeak{holds: map[string]map[types.UID]bool{}}, nil
}
func (*BindingLeak) Name() string { return "BrokenBindingLeak" }
func (p *BindingLeak) Filter(_ context.Context, _ fwk.CycleState, _ *v1.Pod, n fwk.NodeInfo) *fwk.Status {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.holds[n.Node().Name]) > 0 {
		return fwk.NewStatus(fwk.Unschedulable, "node has a binding in flight")
	}
	return nil
}
func (p *BindingLeak) Reserve(_ context.Context, _ fwk.CycleState, pod *v1.Pod, node string) *fwk.Status {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.holds[node] == nil {
		p.holds[node] = map[types.UID]bool{}
	}
	p.holds[node][pod.UID] = false
	return nil
}
func (p *BindingLeak) Unreserve(_ context.Context, _ fwk.CycleState, pod *v1.Pod, node string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if committed, held := p.holds[node][pod.UID]; held && !committed {
		p.release(node, pod.UID)
	}
}
func (p *BindingLeak) PreBind(_ context.Context, _ fwk.CycleState, pod *v1.Pod, node string) *fwk.Status {
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, held := p.holds[node][pod.UID]; held {
		p.holds[node][pod.UID] = true
	}
	return nil
}
func (p *BindingLeak) PostBind(_ context.Context, _ fwk.CycleState, pod *v1.Pod, node string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.release(node, pod.UID)
}

// release drops the pod's hold on the node; the caller holds mu.
func (p *BindingLeak) release(node string, uid types.UID) {
	delete(p.holds[node], uid)
	if len(p.holds[node]) == 0 {
		delete(p.holds, node)
	}
}
