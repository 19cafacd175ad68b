// Package probe holds the probe plugins Probe0..Probe7: scripted per pod through
// an annotation, every call recorded into a shared trace. Behaviour:
// docs/probes.md; the Python twin is reference/probe/.
package probe

import (
	"context"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/sets"

	"github.com/kube-scheduler-conformance/harness/fwk"
)

// waitingPodGrace bounds how long a Permit signal looks for its waiting pod:
// the framework adds it only after every Permit plugin has returned, and never
// when a later plugin rejects.
const waitingPodGrace = 200 * time.Millisecond

// Probe is one registration (Probe0..Probe7); all share the Recorder.
type Probe struct {
	name   string
	args   Args
	handle fwk.Handle
	rec    *Recorder
	epoch  int // the recorder's epoch when the probe was built (Recorder.Silence)
}

var (
	_ fwk.PreEnqueuePlugin = (*Probe)(nil)
	_ fwk.PreFilterPlugin  = (*Probe)(nil)
	_ fwk.FilterPlugin     = (*Probe)(nil)
	_ fwk.PostFilterPlugin = (*Probe)(nil)
	_ fwk.PreScorePlugin   = (*Probe)(nil)
	_ fwk.ScorePlugin      = (*Probe)(nil)
	_ fwk.ScoreExtensions  = (*Probe)(nil)
	_ fwk.ReservePlugin    = (*Probe)(nil)
	_ fwk.PermitPlugin     = (*Probe)(nil)
	_ fwk.PreBindPlugin    = (*Probe)(nil)
	_ fwk.BindPlugin       = (*Probe)(nil)
	_ fwk.PostBindPlugin   = (*Probe)(nil)
)

// Name is the registration's name (Probe0..Probe7), which scripts address.
func (p *Probe) Name() string { return p.name }

func podKey(pod *v1.Pod) string { return pod.Namespace + "/" + pod.Name }

// act finds the action for a call. A broken script records the call as an
// Error with "invalid probe script: ..." and returns a nil action.
func (p *Probe) act(point string, pod *v1.Pod, attempt int, node string, leaked bool) (*Action, *fwk.Status) {
	script, err := p.rec.script(pod.Annotations[ScriptAnnotation])
	if err != nil {
		status := fwk.NewStatus(fwk.Error, "invalid probe script: "+err.Error())
		rec := p.base(point, pod, attempt, node, status)
		rec.Leaked = leaked
		p.record(rec)
		return nil, status
	}
	a := script.action(p.name, point, attempt, node)
	return a, fwk.NewStatus(a.Code, a.Reasons...)
}

func (p *Probe) base(point string, pod *v1.Pod, attempt int, node string, status *fwk.Status) Record {
	rec := Record{Pod: podKey(pod), Point: point, Attempt: attempt, Plugin: p.name, Node: node}
	if status != nil {
		rec.Code = status.Code().String()
		rec.Reasons = status.Reasons()
	}
	return rec
}

// record keeps rec unless the probe's scheduler was silenced since it was built.
func (p *Probe) record(rec Record) { p.rec.record(rec, p.args.Collector, p.epoch) }

// simple is a point whose action is just a status.
func (p *Probe) simple(point string, state fwk.CycleState, pod *v1.Pod, node string) *fwk.Status {
	attempt, _ := p.rec.cycle(state, podKey(pod), p.name, false)
	a, status := p.act(point, pod, attempt, node, false)
	if a != nil {
		p.record(p.base(point, pod, attempt, node, status))
	}
	return status
}

// PreEnqueue answers and records as the pod's script says, in the pod's current cycle.
func (p *Probe) PreEnqueue(_ context.Context, pod *v1.Pod) *fwk.Status {
	attempt := p.rec.currentCycle(podKey(pod))
	a, status := p.act("PreEnqueue", pod, attempt, "", false)
	if a != nil {
		p.record(p.base("PreEnqueue", pod, attempt, "", status))
	}
	return status
}

// PreFilter answers as the pod's script says (with its node result, if any) and records
// it, marking a cycle state that outlived its cycle as leaked.
func (p *Probe) PreFilter(_ context.Context, state fwk.CycleState, pod *v1.Pod, _ []fwk.NodeInfo) (*fwk.PreFilterResult, *fwk.Status) {
	attempt, leaked := p.rec.cycle(state, podKey(pod), p.name, true)
	a, status := p.act("PreFilter", pod, attempt, "", leaked)
	if a == nil {
		return nil, status
	}
	rec := p.base("PreFilter", pod, attempt, "", status)
	rec.Leaked = leaked
	var result *fwk.PreFilterResult
	if a.Result != nil {
		result = &fwk.PreFilterResult{NodeNames: sets.New(a.Result...)}
		rec.Result, rec.HasResult = a.Result, true
	}
	p.record(rec)
	return result, status
}

// PreFilterExtensions is the probe itself: AddPod and RemovePod are scripted too.
func (p *Probe) PreFilterExtensions() fwk.PreFilterExtensions { return p }

// AddPod answers and records as the pod's script says.
func (p *Probe) AddPod(_ context.Context, state fwk.CycleState, pod *v1.Pod, _ fwk.PodInfo, nodeInfo fwk.NodeInfo) *fwk.Status {
	return p.simple("AddPod", state, pod, nodeInfo.Node().Name)
}

// RemovePod answers and records as the pod's script says.
func (p *Probe) RemovePod(_ context.Context, state fwk.CycleState, pod *v1.Pod, _ fwk.PodInfo, nodeInfo fwk.NodeInfo) *fwk.Status {
	return p.simple("RemovePod", state, pod, nodeInfo.Node().Name)
}

// Filter answers and records as the pod's script says for the node.
func (p *Probe) Filter(_ context.Context, state fwk.CycleState, pod *v1.Pod, nodeInfo fwk.NodeInfo) *fwk.Status {
	return p.simple("Filter", state, pod, nodeInfo.Node().Name)
}

// PostFilter answers as the pod's script says, nominating the node it names, if any, and records it.
func (p *Probe) PostFilter(_ context.Context, state fwk.CycleState, pod *v1.Pod, _ fwk.NodeToStatusReader) (*fwk.PostFilterResult, *fwk.Status) {
	attempt, _ := p.rec.cycle(state, podKey(pod), p.name, false)
	a, status := p.act("PostFilter", pod, attempt, "", false)
	if a == nil {
		return nil, status
	}
	rec := p.base("PostFilter", pod, attempt, "", status)
	var result *fwk.PostFilterResult
	if a.Nominate != nil {
		result = &fwk.PostFilterResult{NominatingInfo: &fwk.NominatingInfo{
			NominatedNodeName: *a.Nominate, NominatingMode: fwk.ModeOverride}}
		rec.Nominate = a.Nominate
	}
	p.record(rec)
	return result, status
}

// PreScore answers and records as the pod's script says.
func (p *Probe) PreScore(_ context.Context, state fwk.CycleState, pod *v1.Pod, _ []fwk.NodeInfo) *fwk.Status {
	return p.simple("PreScore", state, pod, "")
}

// Score returns and records the script's score for the node.
func (p *Probe) Score(_ context.Context, state fwk.CycleState, pod *v1.Pod, nodeInfo fwk.NodeInfo) (int64, *fwk.Status) {
	node := nodeInfo.Node().Name
	attempt, _ := p.rec.cycle(state, podKey(pod), p.name, false)
	a, status := p.act("Score", pod, attempt, node, false)
	if a == nil {
		return 0, status
	}
	rec := p.base("Score", pod, attempt, node, status)
	score := a.Score
	rec.Score = &score
	p.record(rec)
	return score, status
}

// ScoreExtensions is the probe itself only with args scoreExtensions: true.
func (p *Probe) ScoreExtensions() fwk.ScoreExtensions {
	if p.args.ScoreExtensions {
		return p
	}
	return nil
}

// NormalizeScore sets the scores the script gives and records the list it leaves.
func (p *Probe) NormalizeScore(_ context.Context, state fwk.CycleState, pod *v1.Pod, scores fwk.NodeScoreList) *fwk.Status {
	attempt, _ := p.rec.cycle(state, podKey(pod), p.name, false)
	a, status := p.act("NormalizeScore", pod, attempt, "", false)
	if a == nil {
		return status
	}
	after := make(map[string]int64, len(scores))
	for i := range scores {
		if s, ok := a.Scores[scores[i].Name]; ok {
			scores[i].Score = s
		}
		after[scores[i].Name] = scores[i].Score
	}
	rec := p.base("NormalizeScore", pod, attempt, "", status)
	rec.Scores, rec.HasScores = after, true
	p.record(rec)
	return status
}

// Reserve answers and records as the pod's script says.
func (p *Probe) Reserve(_ context.Context, state fwk.CycleState, pod *v1.Pod, nodeName string) *fwk.Status {
	return p.simple("Reserve", state, pod, nodeName)
}

// Unreserve only records the call: it has nothing to answer.
func (p *Probe) Unreserve(_ context.Context, state fwk.CycleState, pod *v1.Pod, nodeName string) {
	attempt, _ := p.rec.cycle(state, podKey(pod), p.name, false)
	p.record(p.base("Unreserve", pod, attempt, nodeName, nil))
}

// Permit answers and records as the pod's script says; a Wait with `then`
// later allows or rejects the waiting pod (signal).
func (p *Probe) Permit(_ context.Context, state fwk.CycleState, pod *v1.Pod, nodeName string) (*fwk.Status, time.Duration) {
	attempt, _ := p.rec.cycle(state, podKey(pod), p.name, false)
	a, status := p.act("Permit", pod, attempt, nodeName, false)
	if a == nil {
		return status, 0
	}
	rec := p.base("Permit", pod, attempt, nodeName, status)
	if status.IsWait() {
		seconds := float64(a.Timeout) / 1e9
		rec.Timeout = &seconds
	}
	p.record(rec)
	if status.IsWait() && a.Then != nil {
		then := *a.Then
		p.rec.after(then.After, func(stop <-chan struct{}) { p.signal(pod, attempt, then, stop) })
	}
	return status, a.Timeout
}

// signal delivers a Permit `then` once the waiting pod exists, or records it
// undelivered when the pod never waits (again) within waitingPodGrace.
func (p *Probe) signal(pod *v1.Pod, attempt int, then Signal, stop <-chan struct{}) {
	deadline := time.Now().Add(waitingPodGrace)
	waiting := p.handle.GetWaitingPod(pod.UID)
	// The pod usually waits already, or within the Permit call still running:
	// poll from 1 ns, doubling, so that on a virtual clock the signal is
	// recorded at `after` (t has microsecond resolution), not a poll later.
	for pause := time.Nanosecond; waiting == nil && time.Now().Before(deadline); pause = min(2*pause, time.Millisecond) {
		select {
		case <-stop:
			return
		case <-time.After(pause):
		}
		waiting = p.handle.GetWaitingPod(pod.UID)
	}
	point := "Reject"
	if then.Allow {
		point = "Allow"
	}
	// Recorded before the call: an Allow lets the binding cycle go on at
	// once, and its records must come after this one.
	delivered := waiting != nil
	rec := p.base(point, pod, attempt, "", nil)
	rec.Delivered = &delivered
	p.record(rec)
	if waiting != nil {
		if then.Allow {
			waiting.Allow(p.name)
		} else {
			waiting.Reject(p.name, then.Message)
		}
	}
}

// PreBind answers and records as the pod's script says.
func (p *Probe) PreBind(_ context.Context, state fwk.CycleState, pod *v1.Pod, nodeName string) *fwk.Status {
	return p.simple("PreBind", state, pod, nodeName)
}

// Bind with Success binds through the handle's client as DefaultBinder does.
func (p *Probe) Bind(ctx context.Context, state fwk.CycleState, pod *v1.Pod, nodeName string) *fwk.Status {
	attempt, _ := p.rec.cycle(state, podKey(pod), p.name, false)
	a, status := p.act("Bind", pod, attempt, nodeName, false)
	if a == nil {
		return status
	}
	if status.IsSuccess() {
		binding := &v1.Binding{
			ObjectMeta: metav1.ObjectMeta{Namespace: pod.Namespace, Name: pod.Name, UID: pod.UID},
			Target:     v1.ObjectReference{Kind: "Node", Name: nodeName},
		}
		if err := p.handle.ClientSet().CoreV1().Pods(pod.Namespace).Bind(ctx, binding, metav1.CreateOptions{}); err != nil {
			status = fwk.NewStatus(fwk.Error, err.Error())
		}
	}
	p.record(p.base("Bind", pod, attempt, nodeName, status))
	return status
}

// PostBind only records the call: it has nothing to answer.
func (p *Probe) PostBind(_ context.Context, state fwk.CycleState, pod *v1.Pod, nodeName string) {
	attempt, _ := p.rec.cycle(state, podKey(pod), p.name, false)
	p.record(p.base("PostBind", pod, attempt, nodeName, nil))
}
