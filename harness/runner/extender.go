package runner

import (
	"strings"
	"sync"

	v1 "k8s.io/api/core/v1"
	extenderv1 "k8s.io/kube-scheduler/extender/v1"
	"k8s.io/kubernetes/pkg/scheduler"

	"github.com/kube-scheduler-conformance/harness/fwk"
	"github.com/kube-scheduler-conformance/harness/probe"
)

// ExtenderCall marks where in the probe trace one extender call began: Seq is
// the number of probe records taken before it, T its (virtual) time. The
// Python side places the extender server's record of the call there, since
// wall-clock times cannot be compared with a virtual clock.
type ExtenderCall struct {
	Extender string  `json:"extender"`
	Verb     string  `json:"verb"`
	Pod      string  `json:"pod"`
	Seq      int     `json:"seq"`
	T        float64 `json:"t"`
}

// bindRequest is an extender's bind verb coming back through the runner's
// stdin (a binder extender binds through the API server itself).
type bindRequest struct {
	namespace, name, uid, node string
	reply                      chan string // created outside the bubble
}

// extenderCalls records every extender call of a scenario, placed in the
// probes' trace.
type extenderCalls struct {
	rec   *probe.Recorder
	mu    sync.Mutex
	calls []ExtenderCall
}

func (c *extenderCalls) mark(e fwk.Extender, verb, pod string) {
	call := ExtenderCall{Extender: extenderName(e), Verb: verb, Pod: pod, Seq: c.rec.Seq(), T: c.rec.Elapsed()}
	c.mu.Lock()
	c.calls = append(c.calls, call)
	c.mu.Unlock()
}

func (c *extenderCalls) list() []ExtenderCall {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]ExtenderCall{}, c.calls...)
}

// extenderName is the last path segment of the urlPrefix (the suite's
// extender server serves `<base>/<name>`).
func extenderName(e fwk.Extender) string {
	name := strings.TrimRight(e.Name(), "/")
	return name[strings.LastIndex(name, "/")+1:]
}

// wrapExtenders replaces the scheduler's extenders in place; the frameworks'
// handles share the slice, so preemption sees the wrappers too.
func wrapExtenders(sched *scheduler.Scheduler, calls *extenderCalls, binds <-chan bindRequest, bind func(bindRequest) string) {
	for i, e := range sched.Extenders {
		sched.Extenders[i] = &recordedExtender{Extender: e, calls: calls, binds: binds, bind: bind}
	}
}

// recordedExtender marks each call; its Bind serves the runner's bind
// requests while the HTTP call is in flight, so that the binding happens
// inside the scenario's bubble (the fake API server's watch channels belong
// to it). Time stands still meanwhile: a goroutine in network I/O is not
// durably blocked.
type recordedExtender struct {
	fwk.Extender
	calls *extenderCalls
	binds <-chan bindRequest
	bind  func(bindRequest) string
}

// Filter marks the call and passes it on.
func (e *recordedExtender) Filter(pod *v1.Pod, nodes []fwk.NodeInfo) ([]fwk.NodeInfo, extenderv1.FailedNodesMap, extenderv1.FailedNodesMap, error) {
	e.calls.mark(e.Extender, "filter", podKey(pod))
	return e.Extender.Filter(pod, nodes)
}

// Prioritize marks the call and passes it on.
func (e *recordedExtender) Prioritize(pod *v1.Pod, nodes []fwk.NodeInfo) (*extenderv1.HostPriorityList, int64, error) {
	e.calls.mark(e.Extender, "prioritize", podKey(pod))
	return e.Extender.Prioritize(pod, nodes)
}

// ProcessPreemption marks the call and passes it on.
func (e *recordedExtender) ProcessPreemption(pod *v1.Pod, victims map[string]*extenderv1.Victims, nodeInfos fwk.NodeInfoLister) (map[string]*extenderv1.Victims, error) {
	e.calls.mark(e.Extender, "preempt", podKey(pod))
	return e.Extender.ProcessPreemption(pod, victims, nodeInfos)
}

// Bind marks the call and serves the runner's bind requests until the extender's call returns.
func (e *recordedExtender) Bind(binding *v1.Binding) error {
	e.calls.mark(e.Extender, "bind", binding.Namespace+"/"+binding.Name)
	done := make(chan error, 1)
	go func() { done <- e.Extender.Bind(binding) }()
	for {
		select {
		case err := <-done:
			return err
		case req := <-e.binds:
			req.reply <- e.bind(req)
		}
	}
}
