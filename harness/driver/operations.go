package driver

import (
	"context"
	"fmt"
	"sort"
	"sync"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	internalcache "k8s.io/kubernetes/pkg/scheduler/backend/cache"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/parallelize"

	"github.com/kube-scheduler-conformance/harness/fwk"
	"github.com/kube-scheduler-conformance/harness/runner"
)

type operation func(s *sequence, c Call) (Result, error)

// operations are the calls a sequence may make (docs/contracts.md).
var operations = map[string]operation{
	"snapshot":         (*sequence).snapshot,
	"preFilter":        (*sequence).preFilter,
	"filter":           (*sequence).filter,
	"addPod":           func(s *sequence, c Call) (Result, error) { return s.extension(c, true) },
	"removePod":        func(s *sequence, c Call) (Result, error) { return s.extension(c, false) },
	"preScore":         (*sequence).preScore,
	"score":            (*sequence).score,
	"scores":           (*sequence).scores,
	"reserve":          (*sequence).reserve,
	"unreserve":        (*sequence).unreserve,
	"lessMatrix":       (*sequence).lessMatrix,
	"hint":             (*sequence).hint,
	"parallel":         (*sequence).parallel,
	"preEnqueue":       (*sequence).preEnqueue,
	"postFilter":       (*sequence).postFilter,
	"permit":           (*sequence).permit,
	"preBindPreFlight": (*sequence).preBindPreFlight,
	"preBind":          (*sequence).preBind,
	"bind":             (*sequence).bind,
	"postBind":         (*sequence).postBind,
}

// pluginAt is the driven plugin as the interface of an extension point, or
// an error naming the point it does not implement.
func pluginAt[T any](d *Driver, point string) (T, error) {
	pl, ok := d.plugin.(T)
	if !ok {
		return pl, fmt.Errorf("%s has no %s", d.plugin.Name(), point)
	}
	return pl, nil
}

func operationNames() []string {
	var out []string
	for name := range operations {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// ParallelWorkers is upstream's default parallelism (config v1 `parallelism: 16`).
const ParallelWorkers = 16

func (s *sequence) snapshot(c Call) (Result, error) {
	var nodes []*v1.Node
	var pods []*v1.Pod
	for i, raw := range c.Nodes {
		obj, err := runner.DecodeManifest(raw)
		if err != nil {
			return Result{}, fmt.Errorf("nodes[%d]: %v", i, err)
		}
		n, ok := obj.(*v1.Node)
		if !ok {
			return Result{}, fmt.Errorf("nodes[%d]: expected a Node manifest, got %T", i, obj)
		}
		nodes = append(nodes, n)
	}
	for i, raw := range c.Pods {
		p, err := s.pod(raw)
		if err != nil {
			return Result{}, fmt.Errorf("pods[%d]: %v", i, err)
		}
		pods = append(pods, p)
	}
	objs := make([]runtime.Object, 0, len(nodes)+len(pods)+len(c.Objects))
	for _, n := range nodes {
		objs = append(objs, n)
	}
	for _, p := range pods {
		objs = append(objs, p)
	}
	for i, raw := range c.Objects {
		obj, err := runner.DecodeManifest(raw)
		if err != nil {
			return Result{}, fmt.Errorf("objects[%d]: %v", i, err)
		}
		objs = append(objs, obj)
	}
	if err := s.d.objects.replace(objs); err != nil {
		return Result{}, err
	}
	for _, p := range s.pods {
		s.d.objects.add(p)
	}
	*s.d.snap = *internalcache.NewSnapshot(pods, nodes)
	s.d.bound.reset()
	return Result{}, nil
}

func (s *sequence) preFilter(c Call) (Result, error) {
	pl, err := pluginAt[fwk.PreFilterPlugin](s.d, "PreFilter")
	if err != nil {
		return Result{}, err
	}
	pod, err := s.pod(c.Pod)
	if err != nil {
		return Result{}, err
	}
	st, _ := s.state(c.State, true)
	nodes := s.nodes()
	w := watch("pod", pod, "nodeInfos", nodes)
	res, sts := pl.PreFilter(s.d.ctx, st, pod, nodes)
	s.preFiltered[c.State] = sts
	out := status(sts)
	if res == nil || res.AllNodes() {
		out.AllNodes = true
	} else {
		out.NodeNames = sets(res.NodeNames)
	}
	out.Mutated = w.changed()
	return out, nil
}

func sets[T interface{ UnsortedList() []string }](names T) []string {
	out := names.UnsortedList()
	sort.Strings(out)
	return out
}

func (s *sequence) filter(c Call) (Result, error) {
	pl, err := pluginAt[fwk.FilterPlugin](s.d, "Filter")
	if err != nil {
		return Result{}, err
	}
	pod, st, ni, err := s.podStateNode(c)
	if err != nil {
		return Result{}, err
	}
	w := watch("pod", pod, "nodeInfo", ni, "otherPluginsState", foreign(st))
	sts := pl.Filter(s.d.ctx, st, pod, ni)
	out := status(sts)
	out.Mutated = w.changed()
	if s.filtered[c.State] == nil {
		s.filtered[c.State] = map[string]*fwk.Status{}
	}
	s.filtered[c.State][c.Node] = sts
	return out, nil
}

// podStateNode reads a call's pod, existing cycle state (a fresh one if it names none) and node.
func (s *sequence) podStateNode(c Call) (*v1.Pod, fwk.CycleState, fwk.NodeInfo, error) {
	pod, err := s.pod(c.Pod)
	if err != nil {
		return nil, nil, nil, err
	}
	st, err := s.existingState(c.State)
	if err != nil {
		return nil, nil, nil, err
	}
	if c.Node == "" {
		return pod, st, nil, nil
	}
	ni, err := s.nodeInfo(c.Node)
	return pod, st, ni, err
}

// atNode runs one call of a point that takes the pod, its cycle state and a
// node name (Reserve, Unreserve, Permit, PreBindPreFlight, PreBind, Bind,
// PostBind): the plugin as a P (point names it in the error when it is not),
// the call's pod and state, and which of them run changed.
func atNode[P any](s *sequence, c Call, point string, run func(pl P, st fwk.CycleState, pod *v1.Pod) Result) (Result, error) {
	pl, err := pluginAt[P](s.d, point)
	if err != nil {
		return Result{}, err
	}
	pod, st, _, err := s.podStateNode(c)
	if err != nil {
		return Result{}, err
	}
	w := watch("pod", pod, "otherPluginsState", foreign(st))
	out := run(pl, st, pod)
	out.Mutated = w.changed()
	return out, nil
}

func (s *sequence) existingState(name string) (fwk.CycleState, error) {
	if name == "" {
		return s.state("", true)
	}
	if _, ok := s.states[name]; !ok {
		return s.state(name, true)
	}
	return s.state(name, false)
}

// extension calls AddPod or RemovePod with Other on Node, as upstream does
// for nominated pods and preemption victims: the node info passed already
// has Other added (removed), so the snapshot set before must say so.
func (s *sequence) extension(c Call, add bool) (Result, error) {
	pl, ok := s.d.plugin.(fwk.PreFilterPlugin)
	if !ok || pl.PreFilterExtensions() == nil {
		return Result{}, fmt.Errorf("%s has no PreFilterExtensions", s.d.plugin.Name())
	}
	pod, st, ni, err := s.podStateNode(c)
	if err != nil {
		return Result{}, err
	}
	other, err := s.pod(c.Other)
	if err != nil {
		return Result{}, err
	}
	info, err := framework.NewPodInfo(other)
	if err != nil {
		return Result{}, err
	}
	w := watch("pod", pod, "otherPod", other, "nodeInfo", ni, "otherPluginsState", foreign(st))
	var sts *fwk.Status
	if add {
		sts = pl.PreFilterExtensions().AddPod(s.d.ctx, st, pod, info, ni)
	} else {
		sts = pl.PreFilterExtensions().RemovePod(s.d.ctx, st, pod, info, ni)
	}
	out := status(sts)
	out.Mutated = w.changed()
	return out, nil
}

func (s *sequence) preScore(c Call) (Result, error) {
	pl, err := pluginAt[fwk.PreScorePlugin](s.d, "PreScore")
	if err != nil {
		return Result{}, err
	}
	pod, st, _, err := s.podStateNode(c)
	if err != nil {
		return Result{}, err
	}
	nodes := s.feasibleNodes(c.State)
	w := watch("pod", pod, "nodeInfos", nodes, "otherPluginsState", foreign(st))
	out := status(pl.PreScore(s.d.ctx, st, pod, nodes))
	out.Mutated = w.changed()
	return out, nil
}

func (s *sequence) score(c Call) (Result, error) {
	pl, err := pluginAt[fwk.ScorePlugin](s.d, "Score")
	if err != nil {
		return Result{}, err
	}
	pod, st, ni, err := s.podStateNode(c)
	if err != nil {
		return Result{}, err
	}
	w := watch("pod", pod, "nodeInfo", ni, "otherPluginsState", foreign(st))
	score, sts := pl.Score(s.d.ctx, st, pod, ni)
	out := status(sts)
	out.Score = &score
	out.Mutated = w.changed()
	return out, nil
}

// scores is RunScorePlugins for the one plugin: Score on every node, then
// NormalizeScore when the plugin has ScoreExtensions. Code is the first
// non-success status.
func (s *sequence) scores(c Call) (Result, error) {
	pl, err := pluginAt[fwk.ScorePlugin](s.d, "Score")
	if err != nil {
		return Result{}, err
	}
	pod, st, _, err := s.podStateNode(c)
	if err != nil {
		return Result{}, err
	}
	nodes := s.feasibleNodes(c.State)
	w := watch("pod", pod, "nodeInfos", nodes, "otherPluginsState", foreign(st))
	out := Result{Code: fwk.Success.String(), Scores: map[string]int64{}}
	list := make(fwk.NodeScoreList, 0, len(nodes))
	for _, ni := range nodes {
		score, sts := pl.Score(s.d.ctx, st, pod, ni)
		if !sts.IsSuccess() {
			r := status(sts)
			r.Mutated = w.changed()
			return r, nil
		}
		out.Scores[ni.Node().Name] = score
		list = append(list, fwk.NodeScore{Name: ni.Node().Name, Score: score})
	}
	if ext := pl.ScoreExtensions(); ext != nil {
		if sts := ext.NormalizeScore(s.d.ctx, st, pod, list); !sts.IsSuccess() {
			r := status(sts)
			r.Mutated = w.changed()
			return r, nil
		}
		out.Normalized = map[string]int64{}
		for _, ns := range list {
			out.Normalized[ns.Name] = ns.Score
		}
	}
	out.Mutated = w.changed()
	return out, nil
}

func (s *sequence) reserve(c Call) (Result, error) {
	return atNode(s, c, "Reserve", func(pl fwk.ReservePlugin, st fwk.CycleState, pod *v1.Pod) Result {
		return status(pl.Reserve(s.d.ctx, st, pod, c.Node))
	})
}

func (s *sequence) unreserve(c Call) (Result, error) {
	return atNode(s, c, "Reserve", func(pl fwk.ReservePlugin, st fwk.CycleState, pod *v1.Pod) Result {
		pl.Unreserve(s.d.ctx, st, pod, c.Node)
		return Result{Code: fwk.Success.String()}
	})
}

// parallel calls Filter or Score on every node Repeat times from
// ParallelWorkers goroutines through upstream's Parallelizer, on one cycle
// state, as RunFilterPlugins/RunScorePlugins do. Built with -race, the race
// detector reports what the plugin shares unsafely.
func (s *sequence) parallel(c Call) (Result, error) {
	pod, st, _, err := s.podStateNode(c)
	if err != nil {
		return Result{}, err
	}
	nodes := s.nodes()
	var call func(fwk.NodeInfo)
	switch c.Parallel {
	case "filter":
		pl, err := pluginAt[fwk.FilterPlugin](s.d, "Filter")
		if err != nil {
			return Result{}, err
		}
		call = func(ni fwk.NodeInfo) { pl.Filter(s.d.ctx, st, pod, ni) }
	case "score":
		pl, err := pluginAt[fwk.ScorePlugin](s.d, "Score")
		if err != nil {
			return Result{}, err
		}
		call = func(ni fwk.NodeInfo) { pl.Score(s.d.ctx, st, pod, ni) }
	default:
		return Result{}, fmt.Errorf("parallel %q: use filter or score", c.Parallel)
	}
	repeat := max(1, c.Repeat)
	var once sync.Once
	var panicked string
	parallelize.NewParallelizer(ParallelWorkers).Until(context.Background(), len(nodes)*repeat, func(i int) {
		defer func() {
			if p := recover(); p != nil {
				once.Do(func() { panicked = panicText(p) })
			}
		}()
		call(nodes[i%len(nodes)])
	}, "")
	return Result{Code: fwk.Success.String(), Panic: panicked}, nil
}
