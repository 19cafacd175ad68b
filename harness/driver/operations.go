package driver

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
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

// QueuedPod is a pod as the scheduling queue holds it; times are
// nanoseconds after a fixed epoch.
type QueuedPod struct {
	Pod                 json.RawMessage `json:"pod"`
	Timestamp           int64           `json:"timestamp"`
	Attempts            int             `json:"attempts"`
	UnschedulableCount  int             `json:"unschedulableCount"`
	BackoffExpiration   int64           `json:"backoffExpiration"`
	InitialAttemptDelta *int64          `json:"initialAttempt,omitempty"`
}

// lessMatrix is Less over every ordered pair of queued pods.
func (s *sequence) lessMatrix(c Call) (Result, error) {
	pl, err := pluginAt[fwk.QueueSortPlugin](s.d, "QueueSort")
	if err != nil {
		return Result{}, err
	}
	infos := make([]queuedInfo, len(c.Queued))
	for i, q := range c.Queued {
		pod, err := s.pod(q.Pod)
		if err != nil {
			return Result{}, fmt.Errorf("queued[%d]: %v", i, err)
		}
		info, err := queued(pod, q)
		if err != nil {
			return Result{}, fmt.Errorf("queued[%d]: %v", i, err)
		}
		infos[i] = info
	}
	out := Result{Code: fwk.Success.String(), Less: make([][]bool, len(infos))}
	for i := range infos {
		out.Less[i] = make([]bool, len(infos))
		for j := range infos {
			out.Less[i][j] = pl.Less(infos[i], infos[j])
		}
	}
	return out, nil
}

// Event is a cluster event: an assigned pod or a node added, updated or
// deleted, or (Target) an update of the hint call's pod itself, the pending
// pod the plugin rejected.
type Event struct {
	Kind   string          `json:"kind"`
	Action string          `json:"action"`
	Target bool            `json:"target,omitempty"`
	Old    json.RawMessage `json:"old,omitempty"`
	New    json.RawMessage `json:"new,omitempty"`
}

// HintResult says what the scheduling queue would do with a pod the plugin
// rejected when Event happens: the cluster events upstream's handlers derive
// from it, the plugin's registrations that match them, and whether one of
// their hints says Queue.
type HintResult struct {
	Events     []string `json:"events"`
	Registered []string `json:"registered"`
	Queue      bool     `json:"queue"`
	Errors     []string `json:"errors,omitempty"`
}

func (s *sequence) hint(c Call) (Result, error) {
	pod, err := s.pod(c.Pod)
	if err != nil {
		return Result{}, err
	}
	if c.Event == nil {
		return Result{}, fmt.Errorf("hint needs an event")
	}
	var events []fwk.ClusterEvent
	var oldObj, newObj any
	if c.Event.Target {
		events, oldObj, newObj, err = s.targetEvents(*c.Event, pod)
		if err == nil {
			// PriorityQueue.Update stores the new pod in the queued entity before it asks the hints.
			pod = newObj.(*v1.Pod)
		}
	} else {
		events, oldObj, newObj, err = s.clusterEvents(*c.Event)
	}
	if err != nil {
		return Result{}, err
	}
	out := &HintResult{Events: []string{}, Registered: []string{}}
	for _, evt := range events {
		out.Events = append(out.Events, evt.Label())
		s.d.requeue(out, pod, evt, oldObj, newObj, !c.Event.Target)
	}
	return Result{Code: fwk.Success.String(), Hint: out}, nil
}

// requeue is PriorityQueue.isPodWorthRequeuing for a pod whose only rejector
// is the plugin. preHints: the queue narrowed the pods by PreQueueingHintFn
// (MoveAllToActiveOrBackoffQueue does; Update, for the pod's own update, asks
// isEntityWorthRequeuing with no hint keys).
func (d *Driver) requeue(out *HintResult, pod *v1.Pod, evt fwk.ClusterEvent, oldObj, newObj any, preHints bool) {
	name := d.plugin.Name()
	podNN := types.NamespacedName{Namespace: pod.Namespace, Name: pod.Name}
	for registered, fns := range d.hints {
		if !framework.MatchClusterEvents(registered, evt) {
			continue
		}
		for _, fn := range fns {
			if fn.PluginName != name {
				continue
			}
			out.Registered = append(out.Registered, registrationText(registered))
			if preHints && preHintSkips(fn, podNN, oldObj, newObj) {
				continue
			}
			hint, err := fn.QueueingHintFn(logger, pod, oldObj, newObj)
			if err != nil {
				out.Errors = append(out.Errors, err.Error())
				hint = fwk.Queue
			}
			if hint == fwk.Queue {
				out.Queue = true
			}
		}
	}
	sort.Strings(out.Registered)
}

// registrationText names a registered event with each of its actions
// (Label() prints nothing for a union such as Add|UpdateNodeLabel).
func registrationText(e fwk.ClusterEvent) string {
	if e.ActionType == fwk.All {
		return string(e.Resource) + "/All"
	}
	var actions []string
	for bit := fwk.ActionType(1); bit != 0 && bit <= e.ActionType; bit <<= 1 {
		if e.ActionType&bit != 0 {
			actions = append(actions, bit.String())
		}
	}
	return string(e.Resource) + "/" + strings.Join(actions, "|")
}

func containsName(names []types.NamespacedName, n types.NamespacedName) bool {
	for _, x := range names {
		if x == n {
			return true
		}
	}
	return false
}

// clusterEvents are the events upstream's event handlers (eventhandlers.go)
// send the queue for a change of a node or an assigned pod.
func (s *sequence) clusterEvents(e Event) ([]fwk.ClusterEvent, any, any, error) {
	decode := func(raw []byte) (any, error) {
		if len(raw) == 0 {
			return nil, nil
		}
		obj, err := runner.DecodeManifest(raw)
		if err != nil {
			return nil, err
		}
		return obj, nil
	}
	oldObj, err := decode(e.Old)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("event.old: %v", err)
	}
	newObj, err := decode(e.New)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("event.new: %v", err)
	}
	switch e.Kind + "/" + e.Action {
	case "node/add":
		return []fwk.ClusterEvent{{Resource: fwk.EventResource("Node"), ActionType: fwk.Add}}, nil, newObj, nil
	case "node/delete":
		return []fwk.ClusterEvent{{Resource: fwk.EventResource("Node"), ActionType: fwk.Delete}}, oldObj, nil, nil
	case "node/update":
		if oldObj == nil || newObj == nil {
			return nil, nil, nil, fmt.Errorf("a node update needs old and new")
		}
		return framework.NodeSchedulingPropertiesChange(newObj.(*v1.Node), oldObj.(*v1.Node)), oldObj, newObj, nil
	case "pod/add":
		return []fwk.ClusterEvent{framework.EventAssignedPodAdd}, nil, newObj, nil
	case "pod/delete":
		return []fwk.ClusterEvent{framework.EventAssignedPodDelete}, oldObj, nil, nil
	case "pod/update":
		if oldObj == nil || newObj == nil {
			return nil, nil, nil, fmt.Errorf("a pod update needs old and new")
		}
		return podUpdateEvents(newObj.(*v1.Pod), oldObj.(*v1.Pod)), oldObj, newObj, nil
	}
	return nil, nil, nil, fmt.Errorf("event %s/%s: use kind node or pod and action add, update or delete", e.Kind, e.Action)
}

// targetEvents are the events PriorityQueue.Update derives from an update of
// the pending pod itself (eventhandlers.go updatePodInSchedulingQueue calls
// it for an unscheduled pod): targetPodUpdateEvents, per release. Old and
// new must be that pod, still unscheduled: an update that binds it is not
// one the queue hints on.
func (s *sequence) targetEvents(e Event, pod *v1.Pod) ([]fwk.ClusterEvent, any, any, error) {
	if e.Kind != "pod" || e.Action != "update" {
		return nil, nil, nil, fmt.Errorf("a target event is a pod update; give kind pod, action update, old and new")
	}
	var pods [2]*v1.Pod
	for i, raw := range []json.RawMessage{e.Old, e.New} {
		side := [2]string{"old", "new"}[i]
		if len(raw) == 0 {
			return nil, nil, nil, fmt.Errorf("a target pod update needs old and new")
		}
		p, err := s.pod(raw)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("event.%s: %v", side, err)
		}
		if p.Namespace != pod.Namespace || p.Name != pod.Name {
			return nil, nil, nil, fmt.Errorf("target event.%s is pod %s/%s, not the call's pod %s/%s; give the call's pod as old and its update as new",
				side, p.Namespace, p.Name, pod.Namespace, pod.Name)
		}
		if p.Spec.NodeName != "" {
			return nil, nil, nil, fmt.Errorf("target event.%s has nodeName %q; the target pod is pending: leave spec.nodeName empty, or send a pod update without target for an assigned pod",
				side, p.Spec.NodeName)
		}
		pods[i] = p
	}
	return targetPodUpdateEvents(pods[1], pods[0]), pods[0], pods[1], nil
}
