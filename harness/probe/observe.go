package probe

import (
	"context"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"

	"github.com/kube-scheduler-conformance/harness/fwk"
)

// Observed plugins: any plugin (in-tree or a user's) recorded at one
// extension point, without changing what it does. The runner swaps each
// entry of a built framework's per-point plugin lists for the wrapper of that
// point (runner/observe.go), so the framework's other type assertions
// (EnqueueExtensions, SignPlugin, which points a plugin extends) were made on
// the plugin itself. Records go to the recorder's `observed` list with a
// sequence of their own; `attempt` counts the pod's scheduling cycles in which
// an observed plugin ran (a mark of their own in CycleState), independent of
// the probes' count.

// ObservedCycleKey is the CycleState key of the observed plugins' cycle mark.
const ObservedCycleKey fwk.StateKey = "sched-conformance.io/observed-cycle"

type observedMark struct{ attempt int }

// Clone copies the mark, as CycleState.Clone does for every entry.
func (m *observedMark) Clone() fwk.StateData { return &observedMark{attempt: m.attempt} }

// observedCycle returns the pod's observed cycle for this CycleState, starting one when it has none.
func (r *Recorder) observedCycle(state fwk.CycleState, pod string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	if data, err := state.Read(ObservedCycleKey); err == nil {
		if mark, ok := data.(*observedMark); ok {
			return mark.attempt
		}
	}
	r.observedCycles[pod]++
	state.Write(ObservedCycleKey, &observedMark{attempt: r.observedCycles[pod]})
	return r.observedCycles[pod]
}

func (r *Recorder) observe(rec Record, epoch int) {
	r.mu.Lock()
	if epoch != r.epoch {
		r.mu.Unlock()
		return
	}
	rec.Seq = len(r.observed)
	rec.T = r.Elapsed()
	r.observed = append(r.observed, rec)
	r.mu.Unlock()
	if r.poke != nil {
		r.poke()
	}
}

// Observed returns a copy of the observed plugins' records.
func (r *Recorder) Observed() []Record {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Record(nil), r.observed...)
}

// Observer wraps plugins for one recorder.
type Observer struct {
	rec   *Recorder
	epoch int
}

// NewObserver records into rec until rec is silenced.
func NewObserver(rec *Recorder) Observer { return Observer{rec: rec, epoch: rec.Epoch()} }

func (o Observer) observed(pl fwk.Plugin) observed { return observed{pl.Name(), o.rec, o.epoch} }

type observed struct {
	name  string
	rec   *Recorder
	epoch int
}

func (o observed) observe(rec Record) { o.rec.observe(rec, o.epoch) }

// Name is the wrapped plugin's, so that the framework and the records name the plugin itself.
func (o observed) Name() string { return o.name }

func (o observed) record(point string, state fwk.CycleState, pod *v1.Pod, node string, status *fwk.Status) Record {
	var attempt int
	if state != nil {
		attempt = o.rec.observedCycle(state, podKey(pod))
	} else {
		o.rec.mu.Lock()
		attempt = o.rec.observedCycles[podKey(pod)]
		o.rec.mu.Unlock()
	}
	rec := Record{Pod: podKey(pod), Point: point, Attempt: attempt, Plugin: o.name, Node: node}
	if point != "Unreserve" && point != "PostBind" {
		// A nil status is Success; the framework reads it so too.
		rec.Code = status.Code().String()
		if status != nil {
			rec.Reasons = status.Reasons()
		}
	}
	return rec
}

func (o observed) done(point string, state fwk.CycleState, pod *v1.Pod, node string, status *fwk.Status) {
	o.observe(o.record(point, state, pod, node, status))
}

func nodeName(ni fwk.NodeInfo) string {
	if ni == nil || ni.Node() == nil {
		return ""
	}
	return ni.Node().Name
}

// PreEnqueue wraps pl.
func (o Observer) PreEnqueue(pl fwk.PreEnqueuePlugin) fwk.PreEnqueuePlugin {
	return &preEnqueueObserved{o.observed(pl), pl}
}

type preEnqueueObserved struct {
	observed
	pl fwk.PreEnqueuePlugin
}

// PreEnqueue calls the plugin's PreEnqueue and records it.
func (w *preEnqueueObserved) PreEnqueue(ctx context.Context, pod *v1.Pod) *fwk.Status {
	s := w.pl.PreEnqueue(ctx, pod)
	w.done("PreEnqueue", nil, pod, "", s)
	return s
}

// PreFilter wraps pl and its PreFilterExtensions.
func (o Observer) PreFilter(pl fwk.PreFilterPlugin) fwk.PreFilterPlugin {
	return &preFilterObserved{o.observed(pl), pl}
}

type preFilterObserved struct {
	observed
	pl fwk.PreFilterPlugin
}

// PreFilter calls the plugin's PreFilter and records it with its node result.
func (w *preFilterObserved) PreFilter(ctx context.Context, state fwk.CycleState, pod *v1.Pod, nodes []fwk.NodeInfo) (*fwk.PreFilterResult, *fwk.Status) {
	result, s := w.pl.PreFilter(ctx, state, pod, nodes)
	rec := w.record("PreFilter", state, pod, "", s)
	if result != nil && result.NodeNames != nil {
		rec.Result, rec.HasResult = sets.List(result.NodeNames), true
	}
	w.observe(rec)
	return result, s
}

// PreFilterExtensions wraps the plugin's extensions; nil when it has none, as the framework expects.
func (w *preFilterObserved) PreFilterExtensions() fwk.PreFilterExtensions {
	ext := w.pl.PreFilterExtensions()
	if ext == nil {
		return nil
	}
	return &preFilterExtensionsObserved{w.observed, ext}
}

type preFilterExtensionsObserved struct {
	observed
	ext fwk.PreFilterExtensions
}

// AddPod calls the plugin's AddPod and records it with the node.
func (w *preFilterExtensionsObserved) AddPod(ctx context.Context, state fwk.CycleState, pod *v1.Pod, add fwk.PodInfo, ni fwk.NodeInfo) *fwk.Status {
	s := w.ext.AddPod(ctx, state, pod, add, ni)
	w.done("AddPod", state, pod, nodeName(ni), s)
	return s
}

// RemovePod calls the plugin's RemovePod and records it with the node.
func (w *preFilterExtensionsObserved) RemovePod(ctx context.Context, state fwk.CycleState, pod *v1.Pod, remove fwk.PodInfo, ni fwk.NodeInfo) *fwk.Status {
	s := w.ext.RemovePod(ctx, state, pod, remove, ni)
	w.done("RemovePod", state, pod, nodeName(ni), s)
	return s
}

// Filter wraps pl.
func (o Observer) Filter(pl fwk.FilterPlugin) fwk.FilterPlugin {
	return &filterObserved{o.observed(pl), pl}
}

type filterObserved struct {
	observed
	pl fwk.FilterPlugin
}

// Filter calls the plugin's Filter and records it with the node.
func (w *filterObserved) Filter(ctx context.Context, state fwk.CycleState, pod *v1.Pod, ni fwk.NodeInfo) *fwk.Status {
	s := w.pl.Filter(ctx, state, pod, ni)
	w.done("Filter", state, pod, nodeName(ni), s)
	return s
}

// PostFilter wraps pl.
func (o Observer) PostFilter(pl fwk.PostFilterPlugin) fwk.PostFilterPlugin {
	return &postFilterObserved{o.observed(pl), pl}
}

type postFilterObserved struct {
	observed
	pl fwk.PostFilterPlugin
}

// PostFilter calls the plugin's PostFilter and records it with the node it nominates, if any.
func (w *postFilterObserved) PostFilter(ctx context.Context, state fwk.CycleState, pod *v1.Pod, m fwk.NodeToStatusReader) (*fwk.PostFilterResult, *fwk.Status) {
	result, s := w.pl.PostFilter(ctx, state, pod, m)
	rec := w.record("PostFilter", state, pod, "", s)
	if result != nil && result.NominatingInfo != nil && result.NominatingInfo.NominatingMode == fwk.ModeOverride {
		nominated := result.NominatingInfo.NominatedNodeName
		rec.Nominate = &nominated
	}
	w.observe(rec)
	return result, s
}

// PreScore wraps pl.
func (o Observer) PreScore(pl fwk.PreScorePlugin) fwk.PreScorePlugin {
	return &preScoreObserved{o.observed(pl), pl}
}

type preScoreObserved struct {
	observed
	pl fwk.PreScorePlugin
}

// PreScore calls the plugin's PreScore and records it.
func (w *preScoreObserved) PreScore(ctx context.Context, state fwk.CycleState, pod *v1.Pod, nodes []fwk.NodeInfo) *fwk.Status {
	s := w.pl.PreScore(ctx, state, pod, nodes)
	w.done("PreScore", state, pod, "", s)
	return s
}

// Score wraps pl and its ScoreExtensions.
func (o Observer) Score(pl fwk.ScorePlugin) fwk.ScorePlugin {
	return &scoreObserved{o.observed(pl), pl}
}

type scoreObserved struct {
	observed
	pl fwk.ScorePlugin
}

// Score calls the plugin's Score and records it with the score.
func (w *scoreObserved) Score(ctx context.Context, state fwk.CycleState, pod *v1.Pod, ni fwk.NodeInfo) (int64, *fwk.Status) {
	score, s := w.pl.Score(ctx, state, pod, ni)
	rec := w.record("Score", state, pod, nodeName(ni), s)
	rec.Score = &score
	w.observe(rec)
	return score, s
}

// ScoreExtensions wraps the plugin's extensions; nil when it has none, as the framework expects.
func (w *scoreObserved) ScoreExtensions() fwk.ScoreExtensions {
	ext := w.pl.ScoreExtensions()
	if ext == nil {
		return nil
	}
	return &scoreExtensionsObserved{w.observed, ext}
}

type scoreExtensionsObserved struct {
	observed
	ext fwk.ScoreExtensions
}

// NormalizeScore calls the plugin's NormalizeScore and records the scores it leaves.
func (w *scoreExtensionsObserved) NormalizeScore(ctx context.Context, state fwk.CycleState, pod *v1.Pod, scores fwk.NodeScoreList) *fwk.Status {
	s := w.ext.NormalizeScore(ctx, state, pod, scores)
	rec := w.record("NormalizeScore", state, pod, "", s)
	rec.Scores, rec.HasScores = make(map[string]int64, len(scores)), true
	for _, ns := range scores {
		rec.Scores[ns.Name] = ns.Score
	}
	w.observe(rec)
	return s
}

// Reserve wraps pl.
func (o Observer) Reserve(pl fwk.ReservePlugin) fwk.ReservePlugin {
	return &reserveObserved{o.observed(pl), pl}
}

type reserveObserved struct {
	observed
	pl fwk.ReservePlugin
}

// Reserve calls the plugin's Reserve and records it.
func (w *reserveObserved) Reserve(ctx context.Context, state fwk.CycleState, pod *v1.Pod, node string) *fwk.Status {
	s := w.pl.Reserve(ctx, state, pod, node)
	w.done("Reserve", state, pod, node, s)
	return s
}

// Unreserve calls the plugin's Unreserve and records it.
func (w *reserveObserved) Unreserve(ctx context.Context, state fwk.CycleState, pod *v1.Pod, node string) {
	w.pl.Unreserve(ctx, state, pod, node)
	w.done("Unreserve", state, pod, node, nil)
}

// Permit wraps pl.
func (o Observer) Permit(pl fwk.PermitPlugin) fwk.PermitPlugin {
	return &permitObserved{o.observed(pl), pl}
}

type permitObserved struct {
	observed
	pl fwk.PermitPlugin
}

// Permit calls the plugin's Permit and records it, with the timeout of a Wait.
func (w *permitObserved) Permit(ctx context.Context, state fwk.CycleState, pod *v1.Pod, node string) (*fwk.Status, time.Duration) {
	s, timeout := w.pl.Permit(ctx, state, pod, node)
	rec := w.record("Permit", state, pod, node, s)
	if s.IsWait() {
		seconds := timeout.Seconds()
		rec.Timeout = &seconds
	}
	w.observe(rec)
	return s, timeout
}

// PreBind wraps pl.
func (o Observer) PreBind(pl fwk.PreBindPlugin) fwk.PreBindPlugin {
	return &preBindObserved{o.observed(pl), pl}
}

type preBindObserved struct {
	observed
	pl fwk.PreBindPlugin
}

// PreBind calls the plugin's PreBind and records it.
func (w *preBindObserved) PreBind(ctx context.Context, state fwk.CycleState, pod *v1.Pod, node string) *fwk.Status {
	s := w.pl.PreBind(ctx, state, pod, node)
	w.done("PreBind", state, pod, node, s)
	return s
}

// Bind wraps pl.
func (o Observer) Bind(pl fwk.BindPlugin) fwk.BindPlugin {
	return &bindObserved{o.observed(pl), pl}
}

type bindObserved struct {
	observed
	pl fwk.BindPlugin
}

// Bind calls the plugin's Bind and records it.
func (w *bindObserved) Bind(ctx context.Context, state fwk.CycleState, pod *v1.Pod, node string) *fwk.Status {
	s := w.pl.Bind(ctx, state, pod, node)
	w.done("Bind", state, pod, node, s)
	return s
}

// PostBind wraps pl.
func (o Observer) PostBind(pl fwk.PostBindPlugin) fwk.PostBindPlugin {
	return &postBindObserved{o.observed(pl), pl}
}

type postBindObserved struct {
	observed
	pl fwk.PostBindPlugin
}

// PostBind calls the plugin's PostBind and records it.
func (w *postBindObserved) PostBind(ctx context.Context, state fwk.CycleState, pod *v1.Pod, node string) {
	w.pl.PostBind(ctx, state, pod, node)
	w.done("PostBind", state, pod, node, nil)
}
